// Cancelling a job on a Slurm computer. One still waiting in Slurm's queue has no
// supervisor to read the cancel flag: scancel removes it, and once Slurm confirms that it
// no longer lists the job, the job ends `cancelled`. A running one is stopped by its
// supervisor on the compute node, which reads the flag like any supervisor (grace, then kill).
import type { TReceipt } from "../../../contracts/worker/receipt";
import type { Home } from "../home";
import { transition } from "../jobstate";
import { scancel, slurmJobWhere } from "./commands";

export function cancelInSlurm(home: Home, r: TReceipt): void {
  const settings = home.cfg.slurm;
  // `running` too: a job continued after a time limit waits in the queue as a new Slurm job.
  if (!settings || !r.slurm || (r.state !== "admitted" && r.state !== "running")) return;
  if (slurmJobWhere(settings, r.slurm.jobId).where !== "pending") return;
  const answer = scancel(settings, r.slurm.jobId);
  if (!answer.ok) return; // the flag stays: the supervisor reads it if the job starts after all
  for (let i = 0; i < 20; i++) {
    const where = slurmJobWhere(settings, r.slurm.jobId).where;
    if (where === "ended") {
      transition(home, r.jobId, "cancelled", "cancel_requested", () => ({ detail: `Slurm job ${r.slurm!.jobId} was cancelled while it waited in Slurm's queue` }), ["admitted", "running"]);
      return;
    }
    if (where === "running") return; // it started: its supervisor ends it
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
  }
}
