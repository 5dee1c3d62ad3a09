// Resolve the references in a job input to absolute read-only paths (contracts/worker/refs.ts,
// docs/dev/contracts.md):
//   "sha256:<64 hex>"      a blob in this worker's store first, else the output dir of a
//                          succeeded job whose manifest.json has that hash;
//   "checkpoints:<jobId>"  the checkpoints dir of a job of this worker that ended without
//                          succeeding and saved something there (a resumed attempt reads it).
// Anything unresolvable is `missing_input`, listing every problem at once.
import fs from "node:fs";
import path from "node:path";
import { CHECKPOINTS_REF_PREFIX, SHA256_REF, checkpointsJobOf } from "../../contracts/worker/refs";
import { WorkerError } from "./errors";
import { readText } from "./fsx";
import type { Home } from "./home";
import { readReceipt } from "./receipts";
import { jobPaths } from "./supervisor/command";

/** The job the output index names for `sha`; null when there is no readable index. */
export function indexedJob(home: Home, sha: string): string | null {
  try {
    return (JSON.parse(readText(home.outputIndex(sha)) ?? "null") as { jobId?: string } | null)?.jobId ?? null;
  } catch {
    return null; // a damaged index names no job
  }
}

/**
 * Removes the output index of `sha` only when it names `jobId`: two jobs with identical
 * outputs share one hash, and removing one of them must not unlist the other.
 */
export function unindexOutput(home: Home, sha: string, jobId: string): void {
  if (indexedJob(home, sha) === jobId) fs.rmSync(home.outputIndex(sha), { force: true });
}

export function resolveRef(home: Home, sha: string): string | null {
  const blob = home.blob(sha);
  if (fs.existsSync(blob)) return blob;
  const idx = readText(home.outputIndex(sha));
  if (!idx) return null;
  try {
    const { jobId, outputDir } = JSON.parse(idx) as { jobId: string; outputDir: string };
    const r = readReceipt(home, jobId);
    return r.state === "succeeded" && r.outputSha256 === sha && fs.existsSync(outputDir) ? outputDir : null;
  } catch {
    return null;
  }
}

type Resolution = { path: string } | { problem: string };

// Ending states a new attempt may resume from; `unknown` is excluded because its process
// may still be writing checkpoints.
const RESUMABLE = new Set(["failed", "cancelled", "timed_out"]);

/** Removes write permission below `dir` so the resumed attempt cannot change the checkpoints it reads. */
function freeze(dir: string): void {
  for (const name of fs.readdirSync(dir)) {
    const p = path.join(dir, name);
    const st = fs.lstatSync(p);
    if (st.isSymbolicLink()) continue;
    if (st.isDirectory()) freeze(p);
    fs.chmodSync(p, st.mode & ~0o222);
  }
  fs.chmodSync(dir, fs.statSync(dir).mode & ~0o222);
}

/** The checkpoints dir of job `ref` names, or why it cannot be resumed from. */
export function resolveCheckpoints(home: Home, ref: string): Resolution {
  const jobId = checkpointsJobOf(ref);
  if (!jobId) return { problem: `${JSON.stringify(ref)} does not name a job id of this worker (checkpoints:j<14 digits>-<10 hex>)` };
  let receipt;
  try {
    receipt = readReceipt(home, jobId);
  } catch (err) {
    if (err instanceof WorkerError && err.code === "not_found") return { problem: `no job ${jobId} on this worker to resume from` };
    return { problem: `job ${jobId} cannot be read: ${(err as Error).message}` };
  }
  if (receipt.state === "succeeded") return { problem: `job ${jobId} succeeded: there is nothing to resume` };
  if (!RESUMABLE.has(receipt.state)) return { problem: `job ${jobId} is ${receipt.state}: resume only from a job that has ended (failed, cancelled or timed out)` };
  if (receipt.gcAt) return { problem: `job ${jobId}'s files were removed by gc at ${receipt.gcAt}` };
  const dir = jobPaths(home.jobDir(jobId)).checkpointDir;
  const st = fs.lstatSync(dir, { throwIfNoEntry: false });
  const entries = st?.isDirectory() ? fs.readdirSync(dir) : [];
  if (!entries.length) return { problem: `job ${jobId} ended ${receipt.state} without saving a checkpoint` };
  freeze(dir);
  return { path: dir };
}

export function resolveInput(home: Home, input: unknown): { resolved: unknown; refs: string[] } {
  const refs = new Set<string>();
  const missing = new Set<string>();
  const problems: string[] = [];
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") {
      const m = SHA256_REF.exec(v);
      if (m) {
        const sha = m[1]!;
        const p = resolveRef(home, sha);
        if (!p) missing.add(sha);
        else refs.add(sha);
        return p ?? v;
      }
      if (v.startsWith(CHECKPOINTS_REF_PREFIX)) {
        const r = resolveCheckpoints(home, v);
        if ("problem" in r) problems.push(r.problem);
        else refs.add(v); // validated: exactly `checkpoints:<jobId>`
        return "path" in r ? r.path : v;
      }
      return v;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  const resolved = walk(input);
  if (missing.size || problems.length) {
    const list = [...missing];
    const parts = [
      ...(list.length ? [`input references ${list.length} hash(es) this worker does not hold: ${list.map((s) => s.slice(0, 12)).join(", ")} (put them first)`] : []),
      ...problems.map((p) => `cannot resume: ${p}`),
    ];
    throw new WorkerError("missing_input", parts.join("; "), { missing: list, checkpoints: problems });
  }
  return { resolved, refs: [...refs] };
}

/** The job ids whose checkpoints an active job's `inputRefs` name (gc keeps their job dirs). */
export function checkpointJobsOf(inputRefs: string[]): string[] {
  return inputRefs.map(checkpointsJobOf).filter((id): id is string => id !== null);
}
