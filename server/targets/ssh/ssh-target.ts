/**
 * An SSH training computer (Target kind "ssh") as the rest of the controller sees it:
 * connection options built from its stored config, the accepted host keys and the
 * user's files, and the worker transport over it.
 */
import { createHash } from "node:crypto";
import type { Db } from "@/server/db/client";
import { controllerRuntime } from "@/server/config/runtime";
import { remoteWorkerLayout } from "../layout";
import type { TargetRow } from "../targets.repository";
import { WorkerUnreachable, type WorkerTransport } from "../transport";
import { hostKeyVerifier } from "./host-key-store";
import type { SshConnectOptions } from "./ssh-connection";
import { ZSshTargetConfig, type TSshTargetConfig } from "./ssh-target.schema";
import { sshTransport } from "./ssh-transport";

export function sshConfigOf(t: Pick<TargetRow, "config" | "name">): TSshTargetConfig {
  const parsed = ZSshTargetConfig.safeParse(JSON.parse(t.config));
  if (!parsed.success) throw new WorkerUnreachable(`The settings of ${t.name} are invalid (${parsed.error.issues[0]?.message}); edit the computer.`);
  return parsed.data;
}

/** What Set up installs under a server's worker directory, and the worker's home inside it. */
export function remoteLayout(workerDir: string) {
  const dir = workerDir.replace(/\/+$/, "");
  const worker = remoteWorkerLayout(dir);
  return {
    dir,
    bundle: `${dir}/trainyard-worker.mjs`,
    training: `${dir}/training`,
    install: `${dir}/INSTALL.json`,
    config: `${worker.home}/config.json`,
    worker,
  };
}

export async function sshConnectOptions(db: Db, t: Pick<TargetRow, "id" | "revision" | "config" | "name">, timeoutMs?: number): Promise<SshConnectOptions> {
  const cfg = sshConfigOf(t);
  const rt = controllerRuntime();
  return {
    label: t.name,
    // One connection per computer and revision, reused by worker calls (ssh-pool.ts).
    poolKey: `${t.id}:${t.revision}:${createHash("sha256").update(t.config).digest("hex").slice(0, 16)}`,
    endpoint: cfg.endpoint,
    agent: rt.config.sshAuthSock,
    verifyHostKey: await hostKeyVerifier(db, cfg.endpoint.host, cfg.endpoint.port, cfg.knownHostsFiles),
    timeoutMs: timeoutMs ?? rt.config.workerTimeoutMs,
  };
}

export function sshTargetTransport(db: Db, t: TargetRow): WorkerTransport {
  return {
    label: t.name,
    async exec(request) {
      const cfg = sshConfigOf(t);
      const opts = await sshConnectOptions(db, t);
      return sshTransport({ ...opts, workerDir: cfg.workerDir, nodePath: cfg.nodePath ?? undefined }).exec(request);
    },
  };
}
