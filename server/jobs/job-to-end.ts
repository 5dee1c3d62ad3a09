/**
 * One job run to its end while a person waits for the answer (an on-demand prediction, a
 * holdout comparison's steps): optionally its recipe's environment first (a build in
 * progress is waited for, never started twice), then the job, at a person's priority; a
 * time-out cancels it and says so. A refusal comes back as BAD_INPUT in the recipe's own
 * words, anything else as UNAVAILABLE.
 *
 * A job is found again by its operation id, so asking twice reuses a job that succeeded;
 * one that ended otherwise is not an answer, and a fresh attempt is admitted beside it.
 */
import { randomUUID } from "node:crypto";
import type { Db } from "@/server/db/client";
import { badInput, unavailable } from "@/server/errors";
import { ensureEnvironment } from "./environments";
import { jobFailureText } from "./job-failure-text";
import { isTerminal } from "./job-state";
import { waitForJobEnd } from "./job-wait";
import { jobsRepository } from "./jobs.repository";
import type { JobDetailView } from "./jobs.schema";
import { jobsService } from "./jobs.service";

export interface JobToEnd {
  opId: string;
  targetId: string;
  recipe: string;
  job: string;
  input: Record<string, unknown>;
  /** What the job is, in a person's words ("The prediction"), at the start of every message. */
  label: string;
  timeoutMs: number;
  /** Make the recipe's environment ready first (a computer may not have it yet). */
  ensureEnvironment?: boolean;
  /** A failure that is the caller's input's fault besides a `bad_input` end (a schema mismatch). */
  refusedWhen?: (text: string) => boolean;
  onAdmitted?: (jobId: string) => void;
}

async function environmentReady(db: Db, spec: JobToEnd, until: number): Promise<void> {
  for (;;) {
    const env = await ensureEnvironment(spec.targetId, spec.recipe, db);
    if (env.ready || !env.job) return;
    const waited = await waitForJobEnd(db, env.job.id, until - Date.now());
    if (!waited.ended) throw unavailable(`${spec.label} waited for the ${spec.recipe} environment to be built, which was still running at the time limit; try again when it is ready.`);
    if (waited.job.state !== "succeeded") throw unavailable(`${spec.label} could not start: building the ${spec.recipe} environment ended ${waited.job.state}: ${jobFailureText(waited.job)}`);
  }
}

/** The operation id to admit under: the asked one, unless it names a job that ended without succeeding. */
async function freshOpId(db: Db, opId: string): Promise<string> {
  const seen = await jobsRepository(db).findByOpId(opId);
  return seen && isTerminal(seen.state) && seen.state !== "succeeded" ? `${opId}:again:${randomUUID()}` : opId;
}

export async function runJobToEnd(db: Db, spec: JobToEnd): Promise<JobDetailView & { outputSha256: string }> {
  const until = Date.now() + spec.timeoutMs;
  if (spec.ensureEnvironment) await environmentReady(db, spec, until);
  const jobs = jobsService(db);
  const job = await jobs.admitJob({
    opId: await freshOpId(db, spec.opId),
    targetId: spec.targetId,
    recipe: spec.recipe,
    job: spec.job,
    input: spec.input,
    resources: { cpus: 1, ramGb: 1 },
    priority: 10, // a person is waiting for the answer
    deadlineSeconds: Math.ceil(spec.timeoutMs / 1000) + 60,
  });
  spec.onAdmitted?.(job.id);
  const waited = await waitForJobEnd(db, job.id, until - Date.now());
  const detail = waited.job;
  if (!waited.ended) {
    await jobs.cancelJob(job.id);
    throw unavailable(
      `${spec.label} did not finish within ${Math.round(spec.timeoutMs / 1000)} s (job ${job.id} was still ${detail.state}); it was cancelled.${detail.waiting ? ` ${detail.waiting}` : ""} The computer may be busy with training — try again when it is free.`,
    );
  }
  if (detail.state !== "succeeded") {
    const text = jobFailureText(detail);
    const words = `${spec.label} failed: ${text}`;
    throw detail.reason === "bad_input" || spec.refusedWhen?.(text) ? badInput(words, { jobId: detail.id }) : unavailable(words);
  }
  if (!detail.outputSha256) throw new Error(`job ${detail.id} succeeded without an output hash`);
  return { ...detail, outputSha256: detail.outputSha256 };
}
