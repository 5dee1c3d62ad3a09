// Slurm's own commands, run as argv (never through a shell) with the cluster's slurm.conf.
// Every call has a time limit: a controller that does not answer must not hang the worker.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import type { TSlurmSettings } from "../../../contracts/worker/slurm";

export interface SlurmAnswer {
  ok: boolean;
  stdout: string;
  /** What went wrong, in Slurm's words (or why the command could not run). */
  error: string;
}

export function runSlurm(settings: TSlurmSettings, command: string, args: string[], timeoutMs = 20_000): SlurmAnswer {
  const env = settings.slurmConf ? { ...process.env, SLURM_CONF: settings.slurmConf } : process.env;
  const r = spawnSync(command, args, { env, encoding: "utf8", timeout: timeoutMs, maxBuffer: 4 * 1024 * 1024 });
  if (r.error) {
    const code = (r.error as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? `${command} is not installed on this computer` : code === "ETIMEDOUT" ? `${command} did not answer in ${Math.round(timeoutMs / 1000)} s` : r.error.message;
    return { ok: false, stdout: r.stdout ?? "", error: why };
  }
  const stderr = (r.stderr ?? "").trim();
  if (r.status !== 0) return { ok: false, stdout: r.stdout ?? "", error: stderr || `${command} exited with ${r.status ?? r.signal}` };
  return { ok: true, stdout: r.stdout ?? "", error: stderr };
}

/** Slurm's states in which its job may still start or still runs (squeue's %T). */
const ACTIVE = new Set(["PENDING", "CONFIGURING", "RUNNING", "COMPLETING", "SUSPENDED", "REQUEUED", "REQUEUE_HOLD", "REQUEUE_FED", "RESIZING", "SIGNALING", "STAGE_OUT", "STOPPED"]);

/**
 * Where a Slurm job is: `pending` (queued in Slurm), `running`, `ended` (Slurm no longer
 * lists it), or `unknown` when Slurm's controller does not answer (nothing is concluded then).
 */
export type SlurmJobWhere = { where: "pending" | "running" | "ended" } | { where: "unknown"; error: string };

export function slurmJobWhere(settings: TSlurmSettings, slurmJobId: string): SlurmJobWhere {
  const r = runSlurm(settings, "squeue", ["-h", "-j", slurmJobId, "-o", "%T"]);
  if (!r.ok) {
    // A job squeue has forgotten is answered "Invalid job id specified": it ended.
    if (/invalid job id/i.test(r.error)) return { where: "ended" };
    return { where: "unknown", error: r.error };
  }
  const state = r.stdout.trim().split("\n")[0]?.trim() ?? "";
  if (!state || !ACTIVE.has(state)) return { where: "ended" };
  return { where: state === "PENDING" || state === "REQUEUED" || state === "REQUEUE_HOLD" ? "pending" : "running" };
}

export function scancel(settings: TSlurmSettings, slurmJobId: string): SlurmAnswer {
  return runSlurm(settings, "scancel", [slurmJobId]);
}

/**
 * Why Slurm cannot take jobs now (its controller does not answer), or null. Asked before a
 * job is handed to sbatch, so an outage keeps jobs queued here, saying so, instead of
 * failing them; the answer is kept for a few seconds in the worker home, because a
 * controller that is down makes each question wait for Slurm's timeout.
 */
export function slurmControllerProblem(settings: TSlurmSettings, cacheFile: string): string | null {
  try {
    const cached = JSON.parse(readFileSync(cacheFile, "utf8")) as { at: number; problem: string | null };
    if (Date.now() - cached.at < CONTROLLER_CHECK_MS) return cached.problem;
  } catch {
    // none yet, or unreadable: ask
  }
  const r = runSlurm(settings, "sinfo", ["-h", "-p", settings.partition, "-o", "%a"], 15_000);
  const problem = r.ok ? null : `Slurm's controller does not answer (${r.error}); the job waits here until it does`;
  try {
    writeFileSync(cacheFile, JSON.stringify({ at: Date.now(), problem }));
  } catch {
    // not kept: asked again next time
  }
  return problem;
}

const CONTROLLER_CHECK_MS = 10_000;

/** The id squeue shows for the Slurm job this process runs in: an array's task as "<array>_<index>". */
export function slurmJobIdHere(env: Partial<Record<string, string>>): string {
  return env.SLURM_ARRAY_JOB_ID && env.SLURM_ARRAY_TASK_ID ? `${env.SLURM_ARRAY_JOB_ID}_${env.SLURM_ARRAY_TASK_ID}` : (env.SLURM_JOB_ID ?? "");
}
