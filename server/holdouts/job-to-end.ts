/**
 * One job of a holdout operation, run to its end and awaited (bounded, like on-demand
 * predictions): the recipe's environment first (a build in progress is waited for, never
 * started twice), then the job; a time-out cancels it and says so. A refusal comes back
 * with the recipe's own words.
 */
import type { Db } from "@/server/db/client";
import { badInput, unavailable } from "@/server/errors";
import { ensureEnvironment } from "@/server/jobs/environments";
import { waitForJobEnd } from "@/server/jobs/job-wait";
import { jobsService } from "@/server/jobs/jobs.service";
import type { OutputJob } from "@/server/jobs/read-output";
import { jobFailureText } from "@/server/predictions/predict-job";

export interface JobToEnd {
  opId: string;
  targetId: string;
  recipe: string;
  job: string;
  input: Record<string, unknown>;
  /** What the job is, in a person's words ("Preparing the holdout's rows"). */
  label: string;
}

async function environmentReady(db: Db, targetId: string, recipe: string, until: number, label: string): Promise<void> {
  for (;;) {
    const env = await ensureEnvironment(targetId, recipe, db);
    if (env.ready || !env.job) return;
    const waited = await waitForJobEnd(db, env.job.id, until - Date.now());
    if (!waited.ended) throw unavailable(`${label} waited for the ${recipe} environment to be built, which was still running at the time limit; try again when it is ready.`);
    if (waited.job.state !== "succeeded") throw unavailable(`${label} could not start: building the ${recipe} environment ended ${waited.job.state}: ${jobFailureText(waited.job)}`);
  }
}

export async function runJobToEnd(db: Db, spec: JobToEnd, timeoutMs: number): Promise<OutputJob & { outputSha256: string }> {
  const until = Date.now() + timeoutMs;
  await environmentReady(db, spec.targetId, spec.recipe, until, spec.label);
  const jobs = jobsService(db);
  const job = await jobs.admitJob({
    opId: spec.opId,
    targetId: spec.targetId,
    recipe: spec.recipe,
    job: spec.job,
    input: spec.input,
    resources: { cpus: 1, ramGb: 1 },
    priority: 10, // a person is waiting for the answer
    deadlineSeconds: Math.ceil(timeoutMs / 1000) + 60,
  });
  const waited = await waitForJobEnd(db, job.id, until - Date.now());
  if (!waited.ended) {
    await jobs.cancelJob(job.id);
    throw unavailable(`${spec.label} did not finish within ${Math.round(timeoutMs / 1000)} s (job ${job.id}); it was cancelled. The computer may be busy with training — try again when it is free.`);
  }
  const detail = waited.job;
  if (detail.state !== "succeeded") {
    const words = `${spec.label} failed: ${jobFailureText(detail)}`;
    throw detail.reason === "bad_input" ? badInput(words, { jobId: detail.id }) : unavailable(words);
  }
  if (!detail.outputSha256) throw new Error(`job ${detail.id} succeeded without an output hash`);
  return { id: detail.id, targetId: detail.targetId, workerJobId: detail.workerJobId, outputSha256: detail.outputSha256 };
}
