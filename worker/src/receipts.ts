// Durable job receipts: one JSON file per job, written atomically, updated under the
// job's lock. A receipt that fails to parse is never overwritten: it is renamed to
// `<file>.corrupt-<time>`, reported as `receipt_corrupt`, and listed as a probe problem.
import fs from "node:fs";
import path from "node:path";
import { ZReceipt, type TReceipt } from "../../contracts/worker/receipt";
import type { TProblem } from "../../contracts/worker/responses";
import { WorkerError } from "./errors";
import { readText, writeJsonAtomic } from "./fsx";
import type { Home } from "./home";
import { withLock } from "./lock";

function corruptCopies(home: Home, jobId: string): string[] {
  const dir = home.p("receipts");
  return fs.readdirSync(dir).filter((f) => f.startsWith(`${jobId}.json.corrupt-`)).map((f) => path.join(dir, f));
}

function quarantine(file: string, why: string, jobId: string): never {
  const kept = `${file}.corrupt-${new Date().toISOString().replace(/[:.]/g, "-")}`;
  try {
    fs.renameSync(file, kept);
  } catch {
    // Another reader quarantined it first.
  }
  throw new WorkerError("receipt_corrupt", `receipt of job ${jobId} is corrupt (${why}); kept at ${kept} for repair`, { jobId, path: kept });
}

/** Read a receipt; `not_found` when absent, `receipt_corrupt` when unreadable (the file is preserved). */
export function readReceipt(home: Home, jobId: string): TReceipt {
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(jobId)) throw new WorkerError("not_found", `no job ${JSON.stringify(jobId)} on this worker`);
  const file = home.receipt(jobId);
  const text = readText(file);
  if (text === null) {
    const kept = corruptCopies(home, jobId);
    if (kept.length) {
      throw new WorkerError("receipt_corrupt", `receipt of job ${jobId} is corrupt; kept at ${kept[0]} for repair`, { jobId, path: kept[0] });
    }
    throw new WorkerError("not_found", `no job ${jobId} on this worker`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    quarantine(file, `not JSON: ${(err as Error).message}`, jobId);
  }
  const parsed = ZReceipt.safeParse(json);
  if (!parsed.success) quarantine(file, `schema: ${parsed.error.issues[0]?.message ?? "invalid"}`, jobId);
  return parsed.data;
}

export function createReceipt(home: Home, receipt: TReceipt): void {
  if (fs.existsSync(home.receipt(receipt.jobId))) throw new WorkerError("internal", `receipt ${receipt.jobId} already exists`);
  writeJsonAtomic(home.receipt(receipt.jobId), receipt);
}

export function jobLock<T>(home: Home, jobId: string, fn: () => T): T {
  return withLock(home.lock(`job-${jobId}`), `job ${jobId}`, fn);
}

/** Read-modify-write under the job lock. `fn` returning null means "no change". */
export function updateReceipt(home: Home, jobId: string, fn: (r: TReceipt) => TReceipt | null): TReceipt {
  return jobLock(home, jobId, () => {
    const current = readReceipt(home, jobId);
    const next = fn(current);
    if (!next) return current;
    writeJsonAtomic(home.receipt(jobId), next);
    return next;
  });
}

export function listJobIds(home: Home): string[] {
  return fs
    .readdirSync(home.p("receipts"))
    .filter((f) => f.endsWith(".json"))
    .map((f) => f.slice(0, -5))
    .sort();
}

/** All readable receipts plus a problem entry for every corrupt one (never throws on one bad file). */
export function listReceipts(home: Home): { receipts: TReceipt[]; problems: TProblem[] } {
  const receipts: TReceipt[] = [];
  const problems: TProblem[] = [];
  for (const jobId of listJobIds(home)) {
    try {
      receipts.push(readReceipt(home, jobId));
    } catch (err) {
      if (!(err instanceof WorkerError) || err.code !== "receipt_corrupt") throw err;
    }
  }
  for (const f of fs.readdirSync(home.p("receipts"))) {
    const m = /^(.+)\.json\.corrupt-/.exec(f);
    if (m) problems.push({ kind: "receipt_corrupt", jobId: m[1] ?? null, path: path.join(home.p("receipts"), f), message: `corrupt receipt kept for repair` });
  }
  return { receipts, problems };
}
