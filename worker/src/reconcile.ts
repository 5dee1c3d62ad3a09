// Crash recovery for one job: an active job whose supervisor is gone (killed, reboot,
// pid reused) becomes `failed` (reason `interrupted`) when its recipe process group is
// gone too, or `unknown` while any process of the group still runs — never `running`
// forever, and never silently resumed. Reservations are released by startWhatFits once
// the job is terminal, i.e. only after its processes are gone.
import fs from "node:fs";
import type { TReceipt } from "../../contracts/worker/receipt";
import type { Home } from "./home";
import { transition } from "./jobstate";
import { groupAlive, isAlive } from "./proc";
import { jobPaths } from "./supervisor/command";
import { importTempFile } from "./supervisor/import-job";
import { reconcileSlurmJob } from "./slurm/reconcile";

/** An admitted job whose supervisor never recorded itself is presumed dead after this. */
const LAUNCH_GRACE_MS = 60_000;

export function supervisorGone(r: TReceipt): boolean {
  if (r.supervisor) return !isAlive(r.supervisor);
  const since = Date.parse(r.admittedAt ?? r.createdAt);
  return Date.now() - since > LAUNCH_GRACE_MS;
}

export function reconcileJob(home: Home, r: TReceipt): TReceipt {
  if (r.state !== "admitted" && r.state !== "running" && r.state !== "unknown") return r;
  const inSlurm = reconcileSlurmJob(home, r);
  if (inSlurm) return inSlurm;
  if (r.state !== "unknown" && !supervisorGone(r)) return r;
  if (r.state === "unknown" && r.supervisor && isAlive(r.supervisor)) return r;
  if (groupAlive(r.recipeProcess)) {
    if (r.state === "unknown") return r;
    return transition(home, r.jobId, "unknown", "supervisor_gone", () => ({
      detail: "the job's supervisor is gone but processes of its group still run; reservation kept",
    })).receipt;
  }
  const cancelled = r.cancelRequestedAt !== null;
  // A killed import supervisor leaves its partial copy behind: nothing else removes it.
  if (r.kind === "import") fs.rmSync(importTempFile(jobPaths(r.jobDir)), { force: true });
  return transition(home, r.jobId, cancelled ? "cancelled" : "failed", cancelled ? "cancel_requested" : "interrupted", () => ({
    detail: "the job's supervisor is gone (killed, crashed or the machine rebooted) and no process of its group remains",
  })).receipt;
}
