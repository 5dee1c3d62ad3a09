/**
 * Where a worker keeps things inside its home, as paths on the worker's own machine. The
 * worker's `Home` (worker/src/home.ts) is the truth; the server may not import worker code
 * (DESIGN "One direction only"), so this is its one copy, and layout.test.ts keeps the two
 * equal. This computer's paths use this machine's separator; a server's are POSIX.
 */
import path from "node:path";

export interface WorkerLayout {
  /** The worker home (`--home`): config.json, worker-id, ledger.json. */
  home: string;
  /** Content-addressed blobs: `store/<aa>/<sha256>`, read-only. */
  store: string;
  /** Uploads in progress: `incoming/<sha256>.part` (its size is where a transfer resumes). */
  incoming: string;
  /** Durable job records, one `<jobId>.json` each (written at every transition). */
  receipts: string;
  /** One folder per job: input.json, log, work/, output/. */
  jobs: string;
  blob(sha256: string): string;
  part(sha256: string): string;
}

// Only a validated hash ever becomes a path in the store, never anything a user typed.
function sha(value: string): string {
  if (!/^[0-9a-f]{64}$/.test(value)) throw new Error(`not a SHA-256: ${value}`);
  return value;
}

/** The layout under `home`, joined with `join` (path.join here, path.posix.join for a server). */
export function workerLayout(home: string, join: (...parts: string[]) => string = path.join): WorkerLayout {
  const root = home.length > 1 ? home.replace(/\/+$/, "") : home;
  const store = join(root, "store");
  const incoming = join(root, "incoming");
  return {
    home: root,
    store,
    incoming,
    receipts: join(root, "receipts"),
    jobs: join(root, "jobs"),
    blob: (sha256) => join(store, sha(sha256).slice(0, 2), sha256),
    part: (sha256) => join(incoming, `${sha(sha256)}.part`),
  };
}

/** A server's worker home under its worker directory (`<workerDir>/home`, see install-worker.ts). */
export const remoteWorkerLayout = (workerDir: string): WorkerLayout => workerLayout(path.posix.join(workerDir.replace(/\/+$/, ""), "home"), path.posix.join);
