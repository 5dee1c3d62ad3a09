/**
 * Registering a file by path on a computer: the worker's `import` starts a copy job
 * there (checked against that worker's own allowed roots, read from the descriptor it
 * checked, under its own time limit) and answers at once; this waits for the job with
 * short `inspect` calls, so a large file is never cut off by the control-call timeout
 * and a slow copy never marks the computer unreachable. A failed copy leaves nothing in
 * the store (the worker removes its partial copy). If the server stops while waiting,
 * the worker finishes the copy on its own; the blob is unreferenced until the same file
 * is registered again (then it is found by hash) or `gc` removes it.
 */
import { randomUUID } from "node:crypto";
import { importReportOf, isTerminal, WORKER_PROTOCOL, type TReceipt } from "@/contracts/worker";
import type { Db } from "@/server/db/client";
import { badInput, unavailable } from "@/server/errors";
import { targetsService } from "@/server/targets/targets.service";
import type { TargetRow } from "@/server/targets/targets.repository";
import { WorkerRefused, WorkerUnreachable } from "@/server/targets/transport";

/** Consecutive inspect calls that may go unanswered before the wait gives up. */
const MAX_MISSED_POLLS = 5;

export interface ImportedFile {
  sha256: string;
  bytes: number;
  /** The worker's import job, for messages. */
  jobId: string;
}

export interface ImportOptions {
  /** The job's wall limit on the worker (default: the worker's, 6 h). */
  deadlineSeconds?: number;
  /** Called with each receipt seen while waiting (progress lives in the job's events). */
  onReceipt?: (r: TReceipt) => void;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Starts the import job and waits for its end. Worker refusals surface as WorkerRefused. */
export async function importOnTarget(db: Db, target: TargetRow, filePath: string, opts: ImportOptions = {}): Promise<ImportedFile> {
  const targets = targetsService(db);
  const started = await targets.execOn(target, {
    protocol: WORKER_PROTOCOL,
    op: "import",
    opId: `import:${randomUUID()}`,
    path: filePath,
    ...(opts.deadlineSeconds ? { deadlineSeconds: opts.deadlineSeconds } : {}),
  });
  let receipt = started.receipt;
  opts.onReceipt?.(receipt);
  // The worker ends the job at its deadline; this bound only covers a worker that stops answering for good.
  const giveUpAt = Date.now() + (receipt.deadlineSeconds + 120) * 1000;
  let waitMs = 100;
  let missed = 0;
  while (!isTerminal(receipt.state)) {
    if (Date.now() > giveUpAt) throw unavailable(`${target.name} did not finish copying ${filePath} within ${receipt.deadlineSeconds} s (import job ${receipt.jobId}).`);
    await sleep(waitMs);
    waitMs = Math.min(1000, Math.round(waitMs * 1.5));
    try {
      receipt = (await targets.execOn(target, { protocol: WORKER_PROTOCOL, op: "inspect", jobId: receipt.jobId })).receipt;
      missed = 0;
      opts.onReceipt?.(receipt);
    } catch (err) {
      if (err instanceof WorkerUnreachable && ++missed < MAX_MISSED_POLLS) continue;
      throw err;
    }
  }
  return resultOf(target, filePath, receipt);
}

function resultOf(target: TargetRow, filePath: string, r: TReceipt): ImportedFile {
  const report = importReportOf(r);
  if (r.state === "succeeded" && report?.import) return { sha256: report.import.sha256, bytes: report.import.bytes, jobId: r.jobId };
  if (r.state === "cancelled") throw badInput(`The copy of ${filePath} on ${target.name} was cancelled; nothing was stored.`, { code: "cancelled" });
  if (r.state === "timed_out") throw unavailable(`Copying ${filePath} on ${target.name} took longer than ${r.deadlineSeconds} s and was stopped; nothing was stored.`);
  // The worker's own refusal (path, file type, a file that changed): the caller words it.
  if (report?.error && r.reason === "bad_input") throw new WorkerRefused(report.error.code, report.error.message);
  throw unavailable(`Copying ${filePath} on ${target.name} failed (${r.reason ?? r.state}${r.detail ? `: ${r.detail}` : ""}); nothing was stored. Register it again.`);
}
