// Crash recovery for a job that runs through Slurm. Its supervisor runs on a compute node,
// whose processes this machine cannot see: Slurm says whether the job still waits or runs.
// A job Slurm no longer lists, still active in its receipt, lost its supervisor (cancelled
// in Slurm, node failure, time limit, a preemption it did not requeue): Slurm has ended its
// processes, so it ends here too.
import type { TReceipt } from "../../../contracts/worker/receipt";
import { SLURM_JOB_ID, type TSlurmSettings } from "../../../contracts/worker/slurm";
import { nowIso } from "../fsx";
import type { Home } from "../home";
import { transition } from "../jobstate";
import { updateReceipt } from "../receipts";
import { stoppedBySlurm } from "./attempts";
import { runSlurm, slurmJobWhere } from "./commands";
import { slurmArrayName } from "./array";
import { slurmJobName } from "./submit";

/**
 * A job sbatch took whose id the worker did not record (it stopped in between): found by its
 * name, an array's task by its array's name and its index (`-r`: one line per task).
 */
function recordLostId(home: Home, settings: TSlurmSettings, r: TReceipt): TReceipt {
  const name = r.slurmArray ? slurmArrayName(r.slurmArray.group) : slurmJobName(r.jobId);
  const found = runSlurm(settings, "squeue", ["-h", "-r", "-n", name, "-o", "%i"]);
  const ids = found.ok ? found.stdout.split("\n").map((l) => l.trim()) : [];
  const id = r.slurmArray ? ids.find((l) => l.endsWith(`_${r.slurmArray!.index}`)) : ids[0];
  if (!id || !SLURM_JOB_ID.test(id)) return r;
  return updateReceipt(home, r.jobId, (x) => (x.slurm ? null : { ...x, slurm: { jobId: id, partition: settings.partition, submittedAt: nowIso() } }));
}

/** null: not a Slurm job (the worker's own process checks apply). */
export function reconcileSlurmJob(home: Home, r: TReceipt): TReceipt | null {
  const settings = home.cfg.slurm;
  if (!r.slurm) {
    if (!settings || r.kind !== "run" || r.state !== "admitted" || r.supervisor) return null;
    const found = recordLostId(home, settings, r);
    // Not sent yet: sbatch did not reach the controller (the ledger sends it again).
    if (!found.slurm) return found.slurmRetry ? found : null;
    r = found;
  }
  const job = r.slurm!;
  const where = slurmJobWhere(settings ?? { partition: job.partition, account: null, qos: null, slurmConf: null }, job.jobId);
  if (where.where !== "ended") return r;
  const cancelled = r.cancelRequestedAt !== null;
  const detail = stoppedBySlurm(r)
    ? `Slurm stopped Slurm job ${job.jobId} (SIGTERM) and did not start it again: it was cancelled in Slurm, reached its time limit, or was preempted on a partition that does not requeue`
    : `Slurm job ${job.jobId} ended without its supervisor recording an outcome (cancelled in Slurm, a node failure or its time limit)`;
  return transition(home, r.jobId, cancelled ? "cancelled" : "failed", cancelled ? "cancel_requested" : "interrupted", () => ({ detail })).receipt;
}
