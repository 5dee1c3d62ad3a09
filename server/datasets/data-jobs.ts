/**
 * Running the `data` recipe's jobs (profile, checks, split) for datasets, and
 * `llm-lora.profile_examples` for a file of examples: first use on a computer starts
 * building the recipe's environment (a tracked prepare job whose state
 * and log the UI shows as setup progress), then the job is admitted like any other.
 * Also turns a refusal into words (outputs are read with server/jobs/read-output.ts).
 */
import type { Db } from "@/server/db/client";
import { DomainError } from "@/server/errors";
import { ensureEnvironment } from "@/server/jobs/environments";
import { intentHash } from "@/server/jobs/intent-hash";
import { isTerminal } from "@/server/jobs/job-state";
import { jobsService } from "@/server/jobs/jobs.service";
import type { JobDetailView, JobView } from "@/server/jobs/jobs.schema";
import { targetsService } from "@/server/targets/targets.service";
import type { DatasetError, SetupProgress } from "./datasets.schema";
import { reportUnlessUnreachable } from "@/server/targets/unreachable";
import { jobsRepository } from "@/server/jobs/jobs.repository";

export const DATA_RECIPE = "data";
const RESOURCES = { cpus: 1, ramGb: 1 };
const DEADLINE_S = 2 * 3600;

export type DataJobStart = { kind: "setup"; setup: SetupProgress } | { kind: "job"; job: JobView };

async function logTail(db: Db, jobId: string): Promise<string> {
  const jobs = jobsService(db);
  try {
    const head = await jobs.logs({ id: jobId, stream: "log", offset: 0, maxBytes: 1 });
    const offset = Math.max(0, head.size - 4096);
    return (await jobs.logs({ id: jobId, stream: "log", offset, maxBytes: 4096 })).data;
  } catch {
    return "";
  }
}

export async function setupProgress(db: Db, job: JobView): Promise<SetupProgress> {
  return { jobId: job.id, state: job.state, reason: job.reason, detail: job.detail, logTail: await logTail(db, job.id), startedAt: job.startedAt };
}

/** Setup jobs in progress per target and recipe: while one runs, polls do not probe the computer again. */
const SETUP = Symbol.for("trainyard.dataSetupJobs");
const setupJobs = () => ((globalThis as { [SETUP]?: Map<string, string> })[SETUP] ??= new Map<string, string>());

/** null when the data environment is ready on the target; otherwise the build job (started if needed). */
async function environmentBuild(db: Db, targetId: string, recipe: string): Promise<JobView | null> {
  const key = `${targetId}:${recipe}`;
  const known = setupJobs().get(key);
  if (known) {
    // Gone (its project was deleted meanwhile): as if it had ended.
    const v = (await jobsRepository(db).find(known)) ? await jobsService(db).getView(known) : null;
    if (v && !isTerminal(v.state)) return v;
    setupJobs().delete(key);
    if (v?.state === "succeeded") await targetsService(db).probe(targetId).catch(reportUnlessUnreachable("refreshing the probe of a computer after its data environment was prepared"));
  }
  const env = await ensureEnvironment(targetId, recipe, db);
  if (env.ready || !env.job) return null;
  if (!isTerminal(env.job.state)) setupJobs().set(key, env.job.id);
  return env.job;
}

/**
 * Starts a data job, or the environment build it waits for. The opId is derived from
 * `key` and the input, so calling again with the same input returns the same job.
 */
export async function startDataJob(
  db: Db,
  targetId: string,
  job: "profile" | "checks" | "split" | "profile_examples" | "reference",
  input: Record<string, unknown>,
  key: string,
  recipe: string = DATA_RECIPE,
): Promise<DataJobStart> {
  const prep = await environmentBuild(db, targetId, recipe);
  if (prep) {
    if (isTerminal(prep.state)) {
      // The build failed: the next call starts a fresh one; say why this one failed.
      throw new DomainError("UNAVAILABLE", `Setting up the data tools on ${prep.targetName} ended ${prep.state}${prep.detail ? `: ${prep.detail}` : ""}. Try again, or check Python on that computer.`, {
        setupJobId: prep.id,
      });
    }
    return { kind: "setup", setup: await setupProgress(db, prep) };
  }
  const opId = `${recipe === DATA_RECIPE ? "data" : recipe}.${job}:${key}:${intentHash(input).slice(0, 16)}`;
  const view = await jobsService(db).admitJob({ opId, targetId, recipe, job, input, resources: RESOURCES, deadlineSeconds: DEADLINE_S });
  return { kind: "job", job: view };
}

/** The refusal or failure of a finished job, in words (the recipe's code when it gave one). */
export function jobError(j: JobDetailView): DatasetError {
  const report = j.report as { error?: { code?: string; message?: string } | null } | null;
  if (report?.error?.message) return { code: report.error.code ?? j.reason ?? "failed", message: report.error.message };
  if (j.state === "cancelled") return { code: "cancelled", message: "The job was cancelled." };
  if (j.state === "timed_out") return { code: "timed_out", message: "The job ran out of time." };
  return { code: j.reason ?? j.state, message: j.detail ?? `The ${j.recipe}.${j.jobName} job ended ${j.state}${j.reason ? ` (${j.reason})` : ""}.` };
}
