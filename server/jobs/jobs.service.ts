/**
 * Jobs: admission, reading, logs and cancellation. The public API the experiment chain
 * calls (together with prepareEnvironment in environments.ts).
 *
 * Admission writes the job — opId, intent hash, pinned target revision and worker id,
 * recipe version, environment id, reservation request, deadline — in one transaction
 * BEFORE the worker is asked; see submission.ts for why a crash in between is safe.
 */
import { WORKER_PROTOCOL } from "@/contracts/worker";
import { getDb, type Db } from "@/server/db/client";
import { badInput, conflict, notFound, unavailable } from "@/server/errors";
import { publish } from "@/server/events/bus";
import { outdatedWorkerMessage } from "@/server/targets/compat";
import { targetsService } from "@/server/targets/targets.service";
import type { TProbe } from "@/server/targets/targets.schema";
import { WorkerRefused, WorkerUnreachable } from "@/server/targets/transport";
import { intentHash } from "./intent-hash";
import { isTerminal } from "./job-state";
import { jobsRepository, type JobRow } from "./jobs.repository";
import {
  ZAdmitJobInput,
  type JobDetailView,
  type JobLogChunk,
  type JobView,
  type TAdmitJobInput,
  type TJobLogsInput,
  type TListJobsInput,
} from "./jobs.schema";
import { submitJob } from "./submission";
import { describeWaiting } from "./waiting-words";
import { unlessUnreachable } from "@/server/targets/unreachable";

/** A probe younger than this is trusted for admission (recipe version, environment id). */
export const PROBE_MAX_AGE_MS = 60_000;

function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === "P2002" || /Unique constraint/i.test(e?.message ?? "");
}

export function recipeOnTarget(probe: TProbe, targetName: string, recipe: string) {
  const r = probe.recipes.find((x) => x.name === recipe);
  if (!r) {
    const names = probe.recipes.map((x) => x.name).join(", ") || "none";
    throw notFound(`${targetName} has no recipe "${recipe}" (it has: ${names}).`);
  }
  return r;
}

export function jobsService(db: Db = getDb()) {
  const repo = jobsRepository(db);

  async function requireJob(id: string): Promise<JobRow> {
    const j = await repo.find(id);
    if (!j) throw notFound(`There is no job with id ${id}.`);
    return j;
  }
  async function view(id: string): Promise<JobView> {
    const v = await repo.view(id);
    if (!v) throw notFound(`There is no job with id ${id}.`);
    return (await withWaiting([v]))[0]!;
  }
  /** Names what holds the resources each queued job waits for (waiting-words.ts). */
  async function withWaiting<V extends JobView>(views: V[]): Promise<V[]> {
    const words = await describeWaiting(db, views);
    return words.size ? views.map((v) => (words.has(v.id) ? { ...v, waiting: words.get(v.id)! } : v)) : views;
  }

  /** The same opId returns the same job; the same opId with another intent is a CONFLICT. */
  async function existingFor(opId: string, hash: string): Promise<JobView | null> {
    const existing = await repo.findByOpId(opId);
    if (!existing) return null;
    if (existing.intentHash !== hash) {
      throw conflict(`Operation ${opId} was already used for a different job (${existing.recipe}.${existing.jobName}, job ${existing.id}).`, {
        jobId: existing.id,
      });
    }
    return view(existing.id);
  }

  async function admitJob(raw: TAdmitJobInput): Promise<JobView> {
    const input = ZAdmitJobInput.parse(raw);
    const intent = {
      targetId: input.targetId,
      recipe: input.recipe,
      job: input.job,
      input: input.input,
      resources: input.resources,
      priority: input.priority,
      deadlineSeconds: input.deadlineSeconds,
    };
    const hash = intentHash(intent);
    const seen = await existingFor(input.opId, hash);
    if (seen) return seen;

    const targets = targetsService(db);
    const target = await targets.requireTarget(input.targetId);
    if (!target.enabled) throw badInput(`${target.name} is disabled; enable it before starting jobs there.`);
    let probe: TProbe;
    try {
      probe = (await targets.freshProbe(target.id, PROBE_MAX_AGE_MS)).probe;
    } catch (err) {
      throw unavailable(`Cannot start ${input.recipe}.${input.job} on ${target.name}: ${(err as Error).message}`);
    }
    const outdated = outdatedWorkerMessage(target.name, probe.workerProtocol);
    if (outdated) throw conflict(outdated);
    let recipe = recipeOnTarget(probe, target.name, input.recipe);
    if (!recipe.environmentReady) {
      // The stored probe may predate a build that has just finished: ask once more.
      // A computer that does not answer now keeps its stored probe; what it lacks is said below.
      probe = (await unlessUnreachable(targets.freshProbe(target.id, 0), () => ({ probe }))).probe;
      recipe = recipeOnTarget(probe, target.name, input.recipe);
    }
    if (recipe.jobs.length && !recipe.jobs.includes(input.job)) {
      throw badInput(`Recipe ${recipe.name} has no job "${input.job}" (jobs: ${recipe.jobs.join(", ")}).`);
    }
    if (!recipe.environmentReady || !recipe.environmentId) {
      throw conflict(`The environment of recipe ${recipe.name} is not ready on ${target.name}; prepare it first (prepareEnvironment).`, {
        needsEnvironment: true,
        recipe: recipe.name,
      });
    }

    let job: JobRow;
    try {
      job = await repo.create({
        opId: input.opId,
        intentHash: hash,
        targetId: target.id,
        targetRevision: target.revision,
        workerId: probe.workerId,
        recipe: recipe.name,
        recipeVersion: recipe.version,
        jobName: input.job,
        environmentId: recipe.environmentId,
        input: JSON.stringify(input.input),
        resources: JSON.stringify(input.resources),
        priority: input.priority,
        deadlineSeconds: input.deadlineSeconds,
        queuedReason: `handing the job to ${target.name}`,
        experimentId: input.experimentId ?? null,
        step: input.step ?? null,
        slurmArray: input.slurmArray ? JSON.stringify(input.slurmArray) : null,
      });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      // A concurrent admission with this opId won the insert.
      const again = await existingFor(input.opId, hash);
      if (again) return again;
      throw err;
    }
    publish({ type: "job.changed", jobId: job.id, state: job.state, experimentId: job.experimentId ?? null });
    await submitJob(db, target, job);
    return view(job.id);
  }

  /** Stores the intent first (it survives restarts); the reconcile loop delivers it. */
  async function cancelJob(id: string): Promise<JobView> {
    const job = await requireJob(id);
    if (isTerminal(job.state)) return view(id);
    if (await repo.requestCancel(id, new Date())) publish({ type: "job.changed", jobId: id, state: job.state, experimentId: job.experimentId ?? null });
    return view(id);
  }

  async function logs(input: TJobLogsInput): Promise<JobLogChunk> {
    const job = await requireJob(input.id);
    const empty = { data: "", offset: input.offset, nextOffset: input.offset, size: 0, eof: isTerminal(job.state), droppedBytes: 0 };
    if (!job.workerJobId) return empty;
    const targets = targetsService(db);
    const target = await targets.requireTarget(job.targetId);
    try {
      const res = await targets.execOn(target, {
        protocol: WORKER_PROTOCOL,
        op: "logs",
        jobId: job.workerJobId,
        stream: input.stream,
        offset: input.offset,
        maxBytes: input.maxBytes,
      });
      return { data: res.data, offset: res.offset, nextOffset: res.nextOffset, size: res.size, eof: res.eof, droppedBytes: res.droppedBytes };
    } catch (err) {
      if (err instanceof WorkerUnreachable) throw unavailable(`Cannot read the log of job ${id(job)}: ${err.message}`);
      if (err instanceof WorkerRefused && err.code === "not_found") return { ...empty, eof: true };
      throw err;
    }
  }

  return {
    admitJob,
    cancelJob,
    logs,
    get: async (id: string): Promise<JobDetailView> => {
      const d = await repo.detail(id);
      if (!d) throw notFound(`There is no job with id ${id}.`);
      return (await withWaiting([d]))[0]!;
    },
    getView: view,
    list: async (f: TListJobsInput): Promise<JobView[]> => withWaiting(await repo.list(f)),
  };
}

const id = (j: JobRow) => `${j.id} (${j.recipe}.${j.jobName})`;
