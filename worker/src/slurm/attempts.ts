// The Slurm jobs one worker job ran as, before the current one: recorded in the receipt so
// that the job's page can say why training stopped and where it resumed, and so that a
// Slurm job that ends for good can be told apart from one Slurm is about to start again.
import type { TReceipt } from "../../../contracts/worker/receipt";
import type { TSlurmAttemptReason, TSlurmJobRecord } from "../../../contracts/worker/slurm";
import { nowIso } from "../fsx";
import type { Home } from "../home";
import { updateReceipt } from "../receipts";

/** The attempt that just ended in the job's current Slurm job; `next`: the Slurm job that carries the job on, in the same write. */
export function recordSlurmAttempt(home: Home, jobId: string, reason: TSlurmAttemptReason, startedAt: string | null, next?: TSlurmJobRecord): TReceipt {
  return updateReceipt(home, jobId, (x) => ({
    ...x,
    recipeProcess: null,
    slurmAttempts: [...x.slurmAttempts, { slurmJobId: x.slurm?.jobId ?? "?", startedAt, endedAt: nowIso(), reason }],
    slurm: next ?? x.slurm,
  }));
}

/**
 * A Slurm job that Slurm started again (`--requeue`, `SLURM_RESTART_COUNT` > 0) whose earlier
 * run was killed before its supervisor could say so (SIGKILL after Slurm's KillWait, a node
 * that died): its attempt is recorded now, without a start.
 */
export function recordUnsaidRequeue(home: Home, r: TReceipt, slurmJobId: string, restartCount: number): TReceipt {
  const said = r.slurmAttempts.filter((a) => a.slurmJobId === slurmJobId).length;
  return said < restartCount ? recordSlurmAttempt(home, r.jobId, "preempted", null) : r;
}

/** Whether Slurm stopped the job's current Slurm job and no recipe ran since: it may be started again (requeue), or never (scancel). */
export function stoppedBySlurm(r: TReceipt): boolean {
  const last = r.slurmAttempts.at(-1);
  return last !== undefined && last.reason === "preempted" && last.slurmJobId === r.slurm?.jobId && r.recipeProcess === null;
}
