/**
 * Starts Trainyard: data home, single-instance lock, database upgrade, then Next.js
 * behind the request guard, then the background loops. Everything that can refuse to
 * start does so before the port is opened, with a message a person can act on.
 */
import http from "node:http";
import next from "next";
import type { AppConfig } from "@/server/config/env";
import { ensureHome } from "@/server/config/home";
import { closeDb, openDb } from "@/server/db/client";
import { prepareDatabase, repoMigrationPaths } from "@/server/db/prepare-database";
import { ownerService } from "@/server/auth/owner.service";
import type { HomePaths } from "@/server/config/home";
import { acquireInstanceLock } from "@/server/lifecycle/instance-lock";
import { markServerStarted } from "@/server/lifecycle/server-info";
import { allowedHostNames, hostNameOf, isLoopbackHost, ownOrigins } from "./allowed-hosts";
import { DEPLOYMENT_KEY_HEADER, deploymentKeyMarker, principalMarker } from "./guard-marker";
import { discardRefusedBody, discardUnreadBody, hasBody } from "./refused-body";
import { guardRequest, PRINCIPAL_HEADER } from "./request-guard";
import { protocolRefusalBody } from "./protocol-refusal";

export class StartRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StartRefused";
  }
}

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

export interface StartOptions {
  config: AppConfig;
  repoRoot: string;
  dev?: boolean;
  log?: (line: string) => void;
  /**
   * Starts the controller's loops once the server listens and returns their stop. Passed in
   * by the caller (server/cli/commands/start.ts) so that server/http, which every domain's
   * routes use, does not import the controller, which imports every domain.
   */
  startLoops: (config: AppConfig, home: HomePaths) => () => Promise<void>;
}

function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", (err: NodeJS.ErrnoException) => {
      if (err.code === "EADDRINUSE") {
        reject(new StartRefused(`Port ${port} on ${host} is already in use. Stop what uses it, or choose another port with TRAINYARD_PORT.`));
      } else if (err.code === "EADDRNOTAVAIL") {
        reject(new StartRefused(`This computer has no address ${host} (TRAINYARD_HOST).`));
      } else reject(err);
    });
    server.listen(port, host, () => resolve());
  });
}

export async function startServer(opts: StartOptions): Promise<RunningServer> {
  const { config } = opts;
  const log = opts.log ?? ((l: string) => console.log(l));
  const home = ensureHome(config.home);
  const releaseLock = acquireInstanceLock(home.lockFile, home.root, config.url);
  const cleanups: (() => Promise<void> | void)[] = [releaseLock];
  const cleanup = async () => {
    for (const fn of cleanups.reverse()) await fn();
  };
  try {
    const applied = await prepareDatabase(home.dbFile, repoMigrationPaths(opts.repoRoot));
    // A few names say what an upgrade changed; a new data home's whole history says nothing.
    if (applied.length) log(applied.length <= 3 ? `database upgraded: ${applied.join(", ")}` : `database ready (${applied.length} migrations applied, the last ${applied.at(-1)})`);
    openDb(home.dbFile);
    cleanups.push(() => closeDb());

    const owner = ownerService();
    if (!isLoopbackHost(config.host) && !(await owner.hasPassword())) {
      throw new StartRefused(
        `Refusing to listen on ${config.host}: anyone on the network could use this workspace. ` +
          `Set an owner password first with "trainyard owner set-password", or bind 127.0.0.1.`,
      );
    }

    const app = next({ dev: opts.dev ?? false, dir: opts.repoRoot, hostname: config.host, port: config.port });
    await app.prepare();
    const handle = app.getRequestHandler();
    const publicHost = config.publicOrigin ? [hostNameOf(new URL(config.publicOrigin).host)] : [];
    const allowedHosts = allowedHostNames(config.host, publicHost);
    // Known once listening (the port may be 0 in tests).
    let origins = new Set<string>();
    // The password can be set from the CLI while the server runs: look it up per request.
    const passwordSet = () => owner.hasPassword();
    const guardOptions = { allowedHosts, ownOrigins: () => origins, passwordSet, trustedProxy: config.trustedProxy };

    const server = http.createServer((req, res) => {
      guardRequest(req, guardOptions)
        .then((verdict) => {
          if (!verdict.ok) {
            if (hasBody(req)) discardRefusedBody(req);
            if (verdict.redirect) {
              res.writeHead(303, { Location: verdict.redirect }).end();
            } else {
              res.writeHead(verdict.status, { ...verdict.headers, "content-type": "application/json" });
              res.end(JSON.stringify(protocolRefusalBody(req.url, verdict) ?? { error: verdict.message, code: verdict.code, details: null }));
            }
            return;
          }
          if ("principal" in verdict) req.headers[PRINCIPAL_HEADER] = principalMarker(verdict.principal);
          else req.headers[DEPLOYMENT_KEY_HEADER] = deploymentKeyMarker(verdict.deploymentKey);
          // A route that answered before reading the whole body (an upload over the cap, a
          // predict for an unknown experiment) refused it: the rest goes the way of a body the
          // guard refused, not read to its end by Node.
          res.once("finish", () => {
            if (hasBody(req) && !req.complete) discardUnreadBody(req);
          });
          return handle(req, res);
        })
        .catch((err: unknown) => {
          log(`request failed: ${err instanceof Error ? err.stack : String(err)}`);
          if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
          res.end(JSON.stringify({ error: "Internal error; see the server log." }));
        });
    });
    await listen(server, config.port, config.host);
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : config.port;
    origins = ownOrigins(allowedHosts, port, config.publicOrigin);
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    );
    markServerStarted();
    const stopLoops = opts.startLoops(config, home);
    cleanups.push(stopLoops);

    const hostForUrl = config.host.includes(":") ? `[${config.host}]` : config.host;
    return { url: `http://${hostForUrl}:${port}`, close: cleanup };
  } catch (err) {
    await cleanup();
    throw err;
  }
}
