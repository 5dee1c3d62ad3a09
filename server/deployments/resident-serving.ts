/**
 * A resident release: one serving job (training/serving: serve-tabular, or serve-llm with
 * the fine-tune's base model) per release on the deployment's computer, its opId `serve:<releaseId>` (so a retry or a controller restart
 * finds the same job), answering on its private Unix socket, reached through the Target
 * (directly here, over the SSH connection on a server). The export is the version's
 * managed archive, staged into that computer's worker store by hash. Ready means its /health says so;
 * a job that ends by itself (crash, kill -9, memory budget) is how a dead process is seen.
 */
import { randomUUID } from "node:crypto";
import { SERVE_JOB, SERVE_RECIPE, servingSocketPath, type ServeJobInput } from "@/contracts/deployments/serving";
import type { Db } from "@/server/db/client";
import { unavailable } from "@/server/errors";
import { stageExportOn } from "@/server/registry/stage-export";
import { isTerminal } from "@/server/jobs/job-state";
import { waitForJobEnd } from "@/server/jobs/job-wait";
import { jobsRepository } from "@/server/jobs/jobs.repository";
import { jobsService } from "@/server/jobs/jobs.service";
import { jobFailureText } from "@/server/jobs/job-failure-text";
import { targetFor } from "@/server/targets/target-for";
import { targetsService } from "@/server/targets/targets.service";
import { DEFAULT_MEMORY_GB } from "./deployments.schema";
import { deploymentsRepository } from "./deployments.repository";
import type { ServeSpec } from "./release-kind";
import { ServingClient } from "./serving-client";
import { unlessUnreachable } from "@/server/targets/unreachable";

export const servingOpId = (releaseId: string) => `serve:${releaseId}`;
/** The release a serving job's opId names (a restart's opId carries a suffix); null for any other job. */
export const releaseOfServingOp = (opId: string): string | null => /^serve:([^:]+)/.exec(opId)?.[1] ?? null;
/** How long a release may take to load before the deployment says it failed. */
const LOAD_TIMEOUT_MS = 180_000;
/** A switch waits this long at most for the old process's requests to end (the serving process's own request deadline). */
const DRAIN_TIMEOUT_MS = 60_000;
/** A serving job lives until stopped; the worker still needs a bound. */
const LIFETIME_SECONDS = 30 * 24 * 3600;
/** An LLM release may generate up to this many tokens per request (the contract's default is 256). */
export const LLM_MAX_NEW_TOKENS = 1024;

function serveInput(releaseId: string, exportSha256: string, spec: ServeSpec, idleUnloadMinutes: number | null): ServeJobInput {
  const common = { release: releaseId, export: `sha256:${exportSha256}`, ...(idleUnloadMinutes === null ? {} : { idleUnloadSeconds: Math.round(idleUnloadMinutes * 60) }) };
  if (spec.kind === "tabular") return common;
  return { ...common, base: `sha256:${spec.baseSha256}`, device: spec.device, limits: { maxNewTokens: LLM_MAX_NEW_TOKENS } };
}

/**
 * Starts (or finds) the serving job of a release. `memoryGb` is its process group's budget
 * (the supervisor stops it above this: failed / out_of_memory); null: the kind's default.
 * `idleUnloadMinutes`: its process ends (the job succeeds) after that long without a request; null: never.
 */
export async function startServing(
  db: Db,
  a: { targetId: string; releaseId: string; exportSha256: string; spec: ServeSpec; memoryGb: number | null; idleUnloadMinutes: number | null },
): Promise<string> {
  const existing = await jobsRepository(db).findByOpId(servingOpId(a.releaseId));
  if (existing && !isTerminal(existing.state)) return existing.id;
  await stageExportOn(db, a.targetId, a.exportSha256);
  const job = await jobsService(db).admitJob({
    opId: existing ? `${servingOpId(a.releaseId)}:${randomUUID()}` : servingOpId(a.releaseId),
    targetId: a.targetId,
    recipe: SERVE_RECIPE[a.spec.kind],
    job: SERVE_JOB,
    input: serveInput(a.releaseId, a.exportSha256, a.spec, a.idleUnloadMinutes),
    resources: { cpus: 1, ramGb: a.memoryGb ?? DEFAULT_MEMORY_GB[a.spec.kind] },
    priority: 10,
    deadlineSeconds: LIFETIME_SECONDS,
  });
  return job.id;
}

/** The newest serving job of a release (a restarted release has a later one). */
export async function servingJobOf(db: Db, releaseId: string) {
  return deploymentsRepository(db).newestJobWithOpIdPrefix(servingOpId(releaseId));
}

export async function clientFor(db: Db, releaseId: string): Promise<ServingClient> {
  const job = await servingJobOf(db, releaseId);
  if (!job?.workerJobId || isTerminal(job.state)) throw unavailable("The release's serving process is not running.");
  const row = await targetsService(db).requireTarget(job.targetId);
  const target = targetFor(row, db);
  // Directly on This computer, through the SSH connection's stream-local forwarding on a server.
  const route = target.socketRoute(servingSocketPath(target.layout.home, job.workerJobId));
  return new ServingClient({ openStream: route.openStream, ...(route.via ? { link: route.via } : {}) });
}

export type LoadOutcome = { ok: true } | { ok: false; why: string };

/** Waits until the release's process answers ready, or its job ends / the load times out. */
export async function awaitReady(db: Db, releaseId: string, timeoutMs = LOAD_TIMEOUT_MS): Promise<LoadOutcome> {
  const until = Date.now() + timeoutMs;
  // Why its health did not answer last (say, an SSH computer that refuses stream-local forwarding).
  let last = "";
  for (;;) {
    const job = await servingJobOf(db, releaseId);
    if (!job) return { ok: false, why: "its serving job was never admitted" };
    if (isTerminal(job.state)) return { ok: false, why: `its serving process ended: ${jobFailureText(await jobsService(db).get(job.id))}` };
    if (job.workerJobId && job.state === "running") {
      const h = await clientFor(db, releaseId)
        .then((c) => c.health({ timeoutMs: 2000 }))
        .catch((err: unknown) => ((last = (err as Error).message), null));
      if (h?.ok && h.value.state === "ready") return { ok: true };
    }
    if (Date.now() > until) {
      // A job the computer has not started yet waits for its resources (a training holding the memory): say that.
      const waiting = job.state !== "running" && job.queuedReason ? `its serving job was still waiting to start: ${job.queuedReason}` : null;
      return { ok: false, why: waiting ?? `it did not answer ready within ${Math.round(timeoutMs / 1000)} s${last ? ` (last: ${last.slice(0, 300)})` : ""}` };
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * Waits (bounded: a request's own deadline, ZServingLimits.requestDeadlineSeconds by
 * default) until the release's process has nothing computing or queued, so a switch does
 * not cut a generation or a stream it was answering. One that does not answer is not waited on.
 */
export async function drainServing(db: Db, releaseId: string, timeoutMs = DRAIN_TIMEOUT_MS): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const h = await unlessUnreachable(
      clientFor(db, releaseId).then((c) => c.health({ timeoutMs: 2000 })),
      () => null,
    );
    if (!h?.ok || h.value.inFlight + h.value.queued === 0) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Cancels the release's serving job and waits (bounded) until its process group is gone. */
export async function stopServing(db: Db, releaseId: string, timeoutMs = 60_000): Promise<LoadOutcome> {
  const job = await servingJobOf(db, releaseId);
  if (!job || isTerminal(job.state)) return { ok: true };
  await jobsService(db).cancelJob(job.id);
  const waited = await waitForJobEnd(db, job.id, timeoutMs);
  return waited.ended ? { ok: true } : { ok: false, why: `its serving process did not stop within ${Math.round(timeoutMs / 1000)} s` };
}
