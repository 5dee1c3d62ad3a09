// trainyard-worker CLI entry.
//   control --home DIR               one JSON request on stdin -> one JSON response on stdout
//   control --home DIR --serve       the same, one request per line, answered in order, one
//                                    line each, until stdin ends (saves a Node start per call)
//   supervise --home DIR --job ID    (internal) the detached per-job supervisor
//   supervise --home DIR --job ID --reap   (internal) stop a job whose supervisor is gone
//   supervise --home DIR --job ID --in-slurm   (internal) the supervisor of a Slurm batch job
//   version                          print version and protocol
import { createInterface } from "node:readline";
import { loadConfig } from "./config";
import { control } from "./control";
import { Home } from "./home";
import { MAX_REQUEST_BYTES } from "../../contracts/worker/requests";
import { supervise } from "./supervisor/run";
import { reap } from "./supervisor/reap";
import { slurmJobIdHere } from "./slurm/commands";
import { WORKER_PROTOCOL, WORKER_VERSION } from "./version";

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function readStdin(limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let n = 0;
  for await (const c of process.stdin) {
    chunks.push(c as Buffer);
    n += (c as Buffer).length;
    if (n > limit) break; // enough to know it is too large
  }
  return Buffer.concat(chunks);
}

/**
 * Requests one per line, handled one at a time: each answer is written before the next
 * request is read, so the caller matches answers to requests by order. Every request is
 * handled exactly as a one-shot `control` would handle it (config and home read afresh).
 */
async function serve(homeArg: string): Promise<void> {
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    const res = await control(homeArg, Buffer.from(line, "utf8"));
    await new Promise<void>((resolve) => process.stdout.write(JSON.stringify(res) + "\n", () => resolve()));
  }
}

async function main(): Promise<number> {
  const cmd = process.argv[2];
  const homeArg = arg("--home");
  if (cmd === "version") {
    process.stdout.write(JSON.stringify({ version: WORKER_VERSION, protocol: WORKER_PROTOCOL }) + "\n");
    return 0;
  }
  if (!homeArg) {
    process.stderr.write("usage: trainyard-worker control --home DIR  (request JSON on stdin)\n");
    return 64;
  }
  if (cmd === "control" && process.argv.includes("--serve")) {
    await serve(homeArg);
    return 0;
  }
  if (cmd === "control") {
    const raw = await readStdin(MAX_REQUEST_BYTES);
    const res = await control(homeArg, raw);
    await new Promise<void>((resolve) => process.stdout.write(JSON.stringify(res) + "\n", () => resolve()));
    return 0;
  }
  if (cmd === "supervise") {
    const jobId = arg("--job");
    if (!jobId) return 64;
    const loaded = loadConfig(homeArg);
    const inSlurm = process.argv.includes("--in-slurm") ? { slurmJobId: slurmJobIdHere(process.env), restartCount: Number(process.env.SLURM_RESTART_COUNT ?? 0) || 0 } : null;
    // On a compute node a warm runner would be the login node's: a Slurm job starts cold.
    const cfg = inSlurm ? { ...loaded, warm: { ...loaded.warm, enabled: false } } : loaded;
    const home = new Home(cfg);
    if (process.argv.includes("--reap")) await reap(home, cfg, jobId);
    else await supervise(home, cfg, jobId, inSlurm);
    return 0;
  }
  process.stderr.write(`unknown command ${JSON.stringify(cmd)}; use control, supervise or version\n`);
  return 64;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`trainyard-worker: ${(err as Error).stack ?? String(err)}\n`);
    process.exitCode = 70;
  },
);
