import { loadConfig } from "@/server/config/env";
import { InstanceLocked } from "@/server/lifecycle/instance-lock";
import { DatabaseProblem } from "@/server/db/prepare-database";
import { startServer, StartRefused } from "@/server/http/start-server";
import { startBackgroundLoops } from "@/server/controller/background-loops";
import { CliError } from "../cli-error";
import { ensureBuilt } from "../ensure-built";
import { ensureWorkerBuilt } from "../ensure-worker-built";
import { REPO_ROOT } from "../repo-root";

export const USAGE = `Usage: trainyard start [--dev]

Builds what changed (the web app, the worker), then serves Trainyard at TRAINYARD_URL's
address (default http://127.0.0.1:3000) with its data in TRAINYARD_HOME (default
~/.trainyard). --dev runs Next.js in development mode. Stop it with Ctrl-C.`;

export async function startCommand(args: string[]): Promise<number> {
  const dev = args.includes("--dev");
  // This computer's worker runs the bundle of these sources (unless one is named), also
  // under --dev: the server starts it for every control call and for each job.
  if (!process.env.TRAINYARD_WORKER_BUNDLE) process.env.TRAINYARD_WORKER_BUNDLE = await ensureWorkerBuilt(REPO_ROOT);
  const config = loadConfig();
  // next() reads next.config.ts, which picks the build folder from this variable.
  if (!dev) process.env.TRAINYARD_DIST_DIR = await ensureBuilt(REPO_ROOT);
  let server;
  try {
    server = await startServer({ config, repoRoot: REPO_ROOT, dev, startLoops: startBackgroundLoops });
  } catch (err) {
    if (err instanceof InstanceLocked || err instanceof StartRefused || err instanceof DatabaseProblem) {
      throw new CliError(err.message);
    }
    throw err;
  }
  console.log(`Trainyard is running at ${server.url} (data in ${config.home})`);
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      console.log(`${signal}: stopping…`);
      resolve();
    };
    process.once("SIGINT", () => stop("SIGINT"));
    process.once("SIGTERM", () => stop("SIGTERM"));
  });
  await server.close();
  // Next.js keeps timers and handles alive after close; the server's work is done.
  process.exit(0);
}
