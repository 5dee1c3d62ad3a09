// Cancel for a job whose supervisor is gone but whose process group still runs
// (state `unknown`): a detached "reaper" does what the supervisor would have done —
// SIGTERM the group, wait the grace period, SIGKILL, wait until no member remains —
// then reconciles the job (cancelled, since the cancel flag is set) and frees its slot.
import type { WorkerConfig } from "../config";
import type { Home } from "../home";
import { startWhatFits } from "../ledger";
import { jobGroupMembers, signalJobGroup } from "../proc";
import { readReceipt } from "../receipts";
import { reconcileJob } from "../reconcile";

const delay = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function reap(home: Home, cfg: WorkerConfig, jobId: string): Promise<void> {
  const r = readReceipt(home, jobId);
  const leader = r.recipeProcess;
  // Every signal goes through the identity check: a group whose leader pid now belongs to
  // another process (reused) is not the job's and is left alone.
  if (signalJobGroup(leader, "SIGTERM")) {
    const killAt = Date.now() + r.graceSeconds * 1000;
    while (jobGroupMembers(leader).length > 0) {
      if (Date.now() >= killAt) signalJobGroup(leader, "SIGKILL");
      await delay(200);
    }
  }
  reconcileJob(home, readReceipt(home, jobId));
  startWhatFits(home, cfg);
}
