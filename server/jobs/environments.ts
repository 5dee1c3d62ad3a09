/**
 * Recipe environments on a computer. `prepareEnvironment` starts the worker's `prepare`
 * as a tracked job (a Job row named "prepare", followed by the reconcile loop like any
 * other job); `ensureEnvironment` also waits until it is ready, reporting progress and
 * log text, and is what the experiment chain calls on first use of a recipe.
 */
import { randomUUID } from "node:crypto";
import { getDb, type Db } from "@/server/db/client";
import { badInput, DomainError } from "@/server/errors";
import { eventBus } from "@/server/events/bus";
import { outdatedWorkerMessage } from "@/server/targets/compat";
import { targetsService } from "@/server/targets/targets.service";
import { conflict } from "@/server/errors";
import { intentHash } from "./intent-hash";
import { isTerminal } from "./job-state";
import { jobsRepository } from "./jobs.repository";
import type { JobView } from "./jobs.schema";
import { jobsService, recipeOnTarget } from "./jobs.service";
import { submitJob } from "./submission";

const PREPARE_DEADLINE_S = 4 * 3600;

export interface PrepareResult {
  environmentId: string;
  recipeVersion: string;
  ready: boolean;
  /** The tracked prepare job; null when the environment was already there. */
  job: JobView | null;
}

export async function prepareEnvironment(targetId: string, recipeName: string, db: Db = getDb()): Promise<PrepareResult> {
  const targets = targetsService(db);
  const { target, probe } = await targets.freshProbe(targetId, 0);
  const outdated = outdatedWorkerMessage(target.name, probe.workerProtocol);
  if (outdated) throw conflict(outdated);
  const recipe = recipeOnTarget(probe, target.name, recipeName);
  if (recipe.environmentReady && recipe.environmentId) {
    return { environmentId: recipe.environmentId, recipeVersion: recipe.version, ready: true, job: null };
  }
  if (!recipe.environmentId) {
    const fix = probe.pythons.find((p) => p.fix)?.fix;
    throw badInput(`${target.name} has no Python that can create environments${fix ? `: ${fix}` : ""}.`);
  }
  const repo = jobsRepository(db);
  let job = await repo.findActivePrepare(target.id, recipe.environmentId);
  if (!job) {
    const intent = { kind: "prepare", targetId: target.id, recipe: recipe.name, environmentId: recipe.environmentId };
    job = await repo.create({
      opId: `prepare:${randomUUID()}`,
      intentHash: intentHash(intent),
      targetId: target.id,
      targetRevision: target.revision,
      workerId: probe.workerId,
      recipe: recipe.name,
      recipeVersion: recipe.version,
      jobName: "prepare",
      environmentId: recipe.environmentId,
      input: "{}",
      resources: JSON.stringify({ cpus: 1, ramGb: 0 }),
      priority: 0,
      deadlineSeconds: PREPARE_DEADLINE_S,
      queuedReason: `asking ${target.name} to build the environment`,
    });
    await submitJob(db, target, job);
  }
  const v = await jobsService(db).getView(job.id);
  return { environmentId: recipe.environmentId, recipeVersion: recipe.version, ready: v.state === "succeeded", job: v };
}

export interface EnsureOptions {
  /** Called with the job's state and any new log text while it builds. */
  onProgress?: (p: { state: string; log: string }) => void;
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** Resolves once the recipe's environment is ready on the target; rejects with the reason otherwise. */
export async function ensureEnvironment(
  targetId: string,
  recipe: string,
  opts: EnsureOptions = {},
  db: Db = getDb(),
): Promise<{ environmentId: string; recipeVersion: string; jobId: string | null }> {
  const start = await prepareEnvironment(targetId, recipe, db);
  if (start.ready || !start.job) return { environmentId: start.environmentId, recipeVersion: start.recipeVersion, jobId: start.job?.id ?? null };
  const jobId = start.job.id;
  const jobs = jobsService(db);
  const deadline = Date.now() + (opts.timeoutMs ?? PREPARE_DEADLINE_S * 1000);
  let offset = 0;
  for (;;) {
    const v = await jobs.getView(jobId);
    if (opts.onProgress) {
      try {
        const chunk = await jobs.logs({ id: jobId, stream: "log", offset, maxBytes: 64 * 1024 });
        offset = chunk.nextOffset;
        opts.onProgress({ state: v.state, log: chunk.data });
      } catch {
        opts.onProgress({ state: v.state, log: "" });
      }
    }
    if (isTerminal(v.state)) {
      if (v.state !== "succeeded") {
        throw new DomainError("UNAVAILABLE", `Building the ${recipe} environment on ${v.targetName} ended ${v.state}${v.reason ? ` (${v.reason})` : ""}${v.detail ? `: ${v.detail}` : ""}.`, { jobId });
      }
      await targetsService(db).probe(targetId).catch(() => null);
      return { environmentId: start.environmentId, recipeVersion: start.recipeVersion, jobId };
    }
    if (opts.signal?.aborted) throw new DomainError("UNAVAILABLE", `Stopped waiting for the ${recipe} environment (job ${jobId} goes on).`);
    if (Date.now() > deadline) throw new DomainError("UNAVAILABLE", `The ${recipe} environment was not ready in time (job ${jobId} goes on).`);
    await waitForJobEvent(jobId, 1000);
  }
}

/** Resolves on the next job.changed for this job, or after `ms` (the loop may be slow). */
function waitForJobEvent(jobId: string, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const off = eventBus().subscribe([`job:${jobId}`], () => done());
    const timer = setTimeout(() => done(), ms);
    function done() {
      clearTimeout(timer);
      off();
      resolve();
    }
  });
}
