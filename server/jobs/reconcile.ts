/**
 * One reconcile pass over a computer: look at its active jobs (unknown included), ask its worker what
 * really happened, and record it through transition(). It launches nothing new: the
 * only submit it sends completes an admission the worker has never seen (see
 * submission.ts), and a job in `unknown` or `failed` is never submitted again.
 *
 * Unreachable workers: the first failed call sets Job.unreachableSince; a job the worker
 * had accepted becomes `unknown` once that is older than the configured timeout. A job
 * the worker never accepted stays `queued` (nothing can be running). A receipt the
 * worker no longer has makes the job `unknown` at once. Cancel intent
 * (cancelRequestedAt) is delivered on every pass until the worker's receipt carries it.
 */
import { WORKER_PROTOCOL, type TReceipt } from "@/contracts/worker";
import type { Db } from "@/server/db/client";
import { publish } from "@/server/events/bus";
import { targetsRepository, type TargetRow } from "@/server/targets/targets.repository";
import { targetsService } from "@/server/targets/targets.service";
import { WorkerRefused, WorkerUnreachable } from "@/server/targets/transport";
import { isTerminal, transition } from "./job-state";
import { jobsRepository, type JobRow } from "./jobs.repository";
import { applyReceipt, submitJob, submitsInFlight } from "./submission";

export interface ReconcileOptions {
  unreachableMs: number;
  now?: () => Date;
  log?: (line: string) => void;
}

export interface TargetPass {
  jobs: number;
  /** Set when the computer's worker did not answer. */
  unreachable: boolean;
  errors: number;
}

/**
 * One pass over one computer's active jobs. One failed call is enough: the other jobs
 * there share its fate for this pass.
 */
export async function reconcileTarget(db: Db, targetId: string, opts: ReconcileOptions): Promise<TargetPass> {
  const now = opts.now ?? (() => new Date());
  const log = opts.log ?? (() => {});
  const target = await targetsRepository(db).find(targetId);
  const jobs = await jobsRepository(db).listActiveOn(targetId);
  const result: TargetPass = { jobs: jobs.length, unreachable: false, errors: 0 };
  if (!target) return result;
  let down: WorkerUnreachable | null = null;
  for (const job of jobs) {
    if (submitsInFlight().has(job.opId)) continue;
    try {
      if (down) await noteUnreachable(db, target, job, down, now(), opts.unreachableMs);
      else await reconcileJob(db, target, job);
    } catch (err) {
      if (err instanceof WorkerUnreachable) {
        down = err;
        result.unreachable = true;
        await noteUnreachable(db, target, job, err, now(), opts.unreachableMs);
      } else {
        result.errors++;
        log(`reconcile: job ${job.id} on ${target.name}: ${(err as Error).message}`);
      }
    }
  }
  return result;
}

async function noteUnreachable(db: Db, target: TargetRow, job: JobRow, err: WorkerUnreachable, at: Date, unreachableMs: number) {
  const repo = jobsRepository(db);
  if (await repo.markUnreachable(job.id, at)) {
    publish({ type: "job.changed", jobId: job.id, state: job.state, experimentId: job.experimentId ?? null });
    return;
  }
  const since = job.unreachableSince ?? at;
  // Only a job the worker accepted can have an outcome we no longer know.
  if (job.workerJobId && job.state !== "unknown" && at.getTime() - since.getTime() >= unreachableMs) {
    await transition(db, job.id, "unknown", "unreachable", {
      detail: `${target.name} has not answered since ${since.toISOString()}: ${err.message}. The job keeps its reservation; it is reconciled when the worker answers.`,
    });
  }
}

async function reconcileJob(db: Db, target: TargetRow, job: JobRow): Promise<void> {
  const targets = targetsService(db);
  let receipt: TReceipt;
  try {
    receipt = job.workerJobId
      ? (await targets.execOn(target, { protocol: WORKER_PROTOCOL, op: "inspect", jobId: job.workerJobId })).receipt
      : (await targets.execOn(target, { protocol: WORKER_PROTOCOL, op: "inspect", opId: job.opId })).receipt;
  } catch (err) {
    if (!(err instanceof WorkerRefused)) throw err;
    if (err.code === "not_found" || err.code === "receipt_corrupt") return receiptMissing(db, target, job, err);
    throw err;
  }
  await applyReceipt(db, job, receipt);
  if (job.cancelRequestedAt && !isTerminal(receipt.state) && !receipt.cancelRequestedAt) {
    const res = await targets.execOn(target, { protocol: WORKER_PROTOCOL, op: "cancel", opId: `cancel:${job.id}`, jobId: receipt.jobId });
    const fresh = await jobsRepository(db).find(job.id);
    if (fresh) await applyReceipt(db, fresh, res.receipt);
  }
}

async function receiptMissing(db: Db, target: TargetRow, job: JobRow, err: WorkerRefused): Promise<void> {
  if (!job.workerJobId) {
    // The worker has never seen this opId.
    if (job.cancelRequestedAt) {
      await transition(db, job.id, "cancelled", "cancelled_before_submit", { detail: `cancelled before ${target.name} received it; nothing ran` });
      return;
    }
    if (job.state === "queued") {
      await submitJob(db, target, job);
      return;
    }
  }
  if (job.state === "unknown") return; // already known to be unknown; never retried
  const reason = err.code === "receipt_corrupt" ? "receipt_corrupt" : "receipt_missing";
  await transition(db, job.id, "unknown", reason, {
    detail: `${target.name} has no readable record of this job (${err.message}). It is not run again; cancel it or inspect the computer.`,
    lastContactAt: new Date(),
  });
}
