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
import { recordSlurmAttempt } from "./attempts";
import { batchScript } from "./script";

/** Slurm's job name for a worker job: how a job sbatch accepted is found when its id was not recorded. */
export const slurmJobName = (jobId: string) => `trainyard-${jobId}`;

/** Minutes in Slurm's time format ("infinite", "MM", "MM:SS", "HH:MM:SS", "D-HH[:MM[:SS]]"); null: no limit or unreadable. */
export function slurmMinutes(text: string): number | null {
  const t = text.trim();
  const m = /^(?:(\d+)-)?(\d+)(?::(\d+))?(?::(\d+))?$/.exec(t);
  if (!m) return null;
  const [, d, a, b, c] = m;
  const days = Number(d ?? 0);
  // With a day part the fields are hours[:minutes[:seconds]]; without, minutes[:seconds] or hours:minutes:seconds.
  const [h, min, sec] = d !== undefined ? [Number(a), Number(b ?? 0), Number(c ?? 0)] : c !== undefined ? [Number(a), Number(b), Number(c)] : [0, Number(a), Number(b ?? 0)];
  return days * 1440 + h * 60 + min + sec / 60;
}

/** sbatch's resource flags for a job's resources; its time limit covers the deadline and the grace to stop. */
export function sbatchResourceArgs(r: Pick<TReceipt, "resources" | "deadlineSeconds" | "graceSeconds">, maxMinutes: number | null = null): string[] {
  const args = [`--cpus-per-task=${Math.max(1, Math.ceil(r.resources.cpus))}`];
  if (r.resources.ramGb > 0) args.push(`--mem=${Math.ceil(r.resources.ramGb * 1024)}M`);
  const gpus = r.resources.gpus ?? (r.resources.gpuMemoryGb ? 1 : 0);
  if (gpus > 0) args.push(`--gres=gpu:${gpus}`);
  // A minute more than the supervisor needs to stop the job itself: Slurm's limit is the backstop.
  // A partition's MaxTime caps it: the job then goes on past the limit as new Slurm jobs (continueAsNewSlurmJob).
  const wanted = Math.max(1, Math.ceil((r.deadlineSeconds + r.graceSeconds + 60) / 60));
  args.push(`--time=${maxMinutes !== null ? Math.max(1, Math.min(wanted, Math.floor(maxMinutes))) : wanted}`);
  return args;
}

/** The partition's MaxTime in minutes; null when it has none (or Slurm did not say). */
function partitionMaxMinutes(settings: TSlurmSettings): number | null {
  const r = runSlurm(settings, "sinfo", ["-h", "-p", settings.partition, "-o", "%l"], 15_000);
  return r.ok ? slurmMinutes(r.stdout.split("\n")[0] ?? "") : null;
}

/** sbatch's flags every job of this worker gets, a job of its own or an array's task (the resources of `r`). */
export function sbatchCommonArgs(home: Home, settings: TSlurmSettings, r: Pick<TReceipt, "resources" | "deadlineSeconds" | "graceSeconds">): string[] {
  return [
    `--partition=${settings.partition}`,
    ...(settings.account ? [`--account=${settings.account}`] : []),
    ...(settings.qos ? [`--qos=${settings.qos}`] : []),
    ...sbatchResourceArgs(r, partitionMaxMinutes(settings)),
    "--nodes=1",
    // 90 s before the time limit the supervisor is told, stops the recipe (which saves a
    // checkpoint if it can) and continues the job as a new Slurm job (continueAsNewSlurmJob).
    "--signal=B:USR1@90",
    // Preempted (or its node lost), the same Slurm job starts again; its supervisor goes on
    // with the job where the recipe's checkpoint left it (supervise, `continued`).
    "--requeue",
    `--chdir=${home.root}`,
    `--open-mode=append`,
  ];
}

/** sbatch of the job's supervisor; the Slurm job id, or Slurm's refusal in its words. */
function sbatchJob(home: Home, settings: TSlurmSettings, r: TReceipt): { jobId: string } | { error: string } {
  const dir = home.jobDir(r.jobId);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const script = path.join(dir, "slurm-job.sh");
  fs.writeFileSync(script, batchScript([process.execPath, bundleEntry(), "supervise", "--home", home.root, "--job", r.jobId, "--in-slurm"]), { mode: 0o700 });
  const args = ["--parsable", `--job-name=${slurmJobName(r.jobId)}`, ...sbatchCommonArgs(home, settings, r), `--output=${path.join(dir, "slurm.log")}`, script];
  const answer = runSlurm(settings, "sbatch", args, 60_000);
  const jobId = answer.stdout.trim().split(";")[0] ?? "";
  if (!answer.ok || !/^\d+$/.test(jobId)) return { error: `Slurm did not take the job (sbatch ${settings.partition}): ${answer.error || answer.stdout.trim()}` };
  return { jobId };
}

/** sbatch's words when it could not talk to Slurm's controller (a restart, a busy controller): worth sending again. */
export const slurmUnreached = (error: string) => /Unable to contact slurm controller|Socket timed out|Zero Bytes were transmitted|Connection refused|Transport endpoint|did not answer in/i.test(error);

/**
 * Hands an admitted job to Slurm. A refusal fails the job with Slurm's words; sbatch that
 * did not reach the controller leaves it admitted with `slurmRetry`, and the ledger sends it
 * again once the controller answers (startWhatFits).
 */
export function submitToSlurm(home: Home, settings: TSlurmSettings, r: TReceipt): void {
  const sent = sbatchJob(home, settings, r);
  if ("error" in sent) {
    if (slurmUnreached(sent.error)) {
      updateReceipt(home, r.jobId, (x) => (x.state === "admitted" && !x.slurm ? { ...x, slurmRetry: { error: sent.error, at: nowIso() } } : null));
      return;
    }
    transition(home, r.jobId, "failed", "launch_failed", () => ({ detail: sent.error }), ["admitted"]);
    return;
  }
  updateReceipt(home, r.jobId, (x) => ({ ...x, slurmRetry: null, slurm: { jobId: sent.jobId, partition: settings.partition, submittedAt: nowIso() } }));
}

/**
 * A running job whose Slurm job reached its time limit goes on as a new Slurm job: the
 * attempt is recorded and the new job id replaces the old before the old one ends, so no
 * reconcile pass finds the job without a live Slurm job. The job stays `running`
 * throughout. Returns Slurm's refusal when it did not take the new job.
 */
export function continueAsNewSlurmJob(home: Home, settings: TSlurmSettings, r: TReceipt, attemptStartedAt: string): string | null {
  const sent = sbatchJob(home, settings, r);
  if ("error" in sent) return sent.error;
  recordSlurmAttempt(home, r.jobId, "time_limit", attemptStartedAt, { jobId: sent.jobId, partition: settings.partition, submittedAt: nowIso() });
  return null;
}
