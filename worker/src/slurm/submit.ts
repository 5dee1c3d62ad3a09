// A job on a Slurm computer: admitted by the worker at once (Slurm keeps the queue, not the
// worker's ledger), then handed to sbatch. The receipt records the Slurm job id; the
// supervisor on the compute node writes the outcome into the shared worker home as always.
import fs from "node:fs";
import path from "node:path";
import type { TReceipt } from "../../../contracts/worker/receipt";
import type { TSlurmSettings } from "../../../contracts/worker/slurm";
import { bundleEntry } from "../config";
import { nowIso } from "../fsx";
import type { Home } from "../home";
import { transition } from "../jobstate";
import { updateReceipt } from "../receipts";
import { runSlurm } from "./commands";
import { batchScript } from "./script";

/** Slurm's job name for a worker job: how a job sbatch accepted is found when its id was not recorded. */
export const slurmJobName = (jobId: string) => `trainyard-${jobId}`;

/** sbatch's resource flags for a job's resources; its time limit covers the deadline and the grace to stop. */
export function sbatchResourceArgs(r: Pick<TReceipt, "resources" | "deadlineSeconds" | "graceSeconds">): string[] {
  const args = [`--cpus-per-task=${Math.max(1, Math.ceil(r.resources.cpus))}`];
  if (r.resources.ramGb > 0) args.push(`--mem=${Math.ceil(r.resources.ramGb * 1024)}M`);
  const gpus = r.resources.gpus ?? (r.resources.gpuMemoryGb ? 1 : 0);
  if (gpus > 0) args.push(`--gres=gpu:${gpus}`);
  // A minute more than the supervisor needs to stop the job itself: Slurm's limit is the backstop.
  args.push(`--time=${Math.max(1, Math.ceil((r.deadlineSeconds + r.graceSeconds + 60) / 60))}`);
  return args;
}

export function submitToSlurm(home: Home, settings: TSlurmSettings, r: TReceipt): void {
  const dir = home.jobDir(r.jobId);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const script = path.join(dir, "slurm-job.sh");
  fs.writeFileSync(script, batchScript([process.execPath, bundleEntry(), "supervise", "--home", home.root, "--job", r.jobId, "--in-slurm"]), { mode: 0o700 });
  const args = [
    "--parsable",
    `--job-name=${slurmJobName(r.jobId)}`,
    `--partition=${settings.partition}`,
    ...(settings.account ? [`--account=${settings.account}`] : []),
    ...(settings.qos ? [`--qos=${settings.qos}`] : []),
    ...sbatchResourceArgs(r),
    "--nodes=1",
    "--no-requeue",
    `--chdir=${home.root}`,
    `--output=${path.join(dir, "slurm.log")}`,
    script,
  ];
  const answer = runSlurm(settings, "sbatch", args, 60_000);
  const slurmJobId = answer.stdout.trim().split(";")[0] ?? "";
  if (!answer.ok || !/^\d+$/.test(slurmJobId)) {
    transition(home, r.jobId, "failed", "launch_failed", () => ({ detail: `Slurm did not take the job (sbatch ${settings.partition}): ${answer.error || answer.stdout.trim()}` }), ["admitted"]);
    return;
  }
  updateReceipt(home, r.jobId, (x) => ({ ...x, slurm: { jobId: slurmJobId, partition: settings.partition, submittedAt: nowIso() } }));
}
