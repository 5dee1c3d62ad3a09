/**
 * Handing an admitted job to its worker, and folding a worker receipt back into the
 * Job row. Both the admission request and the reconcile loop use these.
 *
 * Why re-submitting is safe: the job row (with its opId) is written BEFORE the worker
 * is asked. If the server dies between that write and the submit, the reconcile loop
 * finds a job with no workerJobId, asks the worker about that opId, and submits only
 * when the worker has never seen it. The worker's submit is idempotent by opId too (the
 * same opId + intent returns the existing receipt), so even a submit whose answer was
 * lost cannot start a second run.
 */
import { WORKER_PROTOCOL, ZSlurmArrayMember, type TReceipt } from "@/contracts/worker";
import { parseStoredJson } from "@/server/db/stored-json";
import type { Db } from "@/server/db/client";
import { publish } from "@/server/events/bus";
import { targetsService } from "@/server/targets/targets.service";
import type { TargetRow } from "@/server/targets/targets.repository";
import { WorkerRefused, WorkerUnreachable } from "@/server/targets/transport";
import { classifySubmitRefusal } from "./failure-class";
import { isTerminal, transition, type JobPatch } from "./job-state";
import { jobsRepository, type JobRow } from "./jobs.repository";
import { reportUnlessUnreachable } from "@/server/targets/unreachable";

/** opIds whose submit is running in this process; the loop leaves them alone meanwhile. */
const KEY = Symbol.for("trainyard.submitsInFlight");
export function submitsInFlight(): Set<string> {
  const g = globalThis as { [KEY]?: Set<string> };
  return (g[KEY] ??= new Set());
}

const toDate = (s: string | null) => (s ? new Date(s) : null);

/** Applies what the worker says about the job: state through transition(), the rest as fields. */
export async function applyReceipt(db: Db, job: JobRow, r: TReceipt): Promise<void> {
  const patch: JobPatch = {
    workerJobId: r.jobId,
    slurm: r.slurm ? JSON.stringify({ ...r.slurm, attempts: r.slurmAttempts }) : null,
    queuedReason: r.queuedReason,
    waitingFor: r.waitingFor ? JSON.stringify(r.waitingFor) : null,
    detail: r.detail,
    startedAt: toDate(r.startedAt),
    usage: JSON.stringify(r.usage),
    report: r.report === null || r.report === undefined ? null : JSON.stringify(r.report),
    outputSha256: r.outputSha256,
    unreachableSince: null,
    lastContactAt: new Date(),
  };
  if (isTerminal(r.state)) patch.endedAt = toDate(r.endedAt) ?? new Date();
  if (r.state !== job.state) {
    const t = await transition(db, job.id, r.state, r.reason ?? (r.state === "succeeded" ? "completed" : null), patch);
    // A new environment changes what the computer offers: refresh its stored probe.
    if (t.changed && job.jobName === "prepare" && r.state === "succeeded") await targetsService(db).probe(job.targetId).catch(reportUnlessUnreachable(`refreshing the probe of a computer after its environment was prepared`));
    if (t.changed) return;
  }
  const changed =
    job.workerJobId !== r.jobId ||
    job.slurm !== patch.slurm ||
    job.queuedReason !== r.queuedReason ||
    job.waitingFor !== patch.waitingFor ||
    job.detail !== r.detail ||
    job.usage !== patch.usage ||
    job.report !== patch.report ||
    job.outputSha256 !== r.outputSha256 ||
    job.unreachableSince !== null ||
    (job.startedAt?.toISOString() ?? null) !== (r.startedAt ? new Date(r.startedAt).toISOString() : null);
  // lastContactAt alone is not worth a write per pass; it is refreshed with other changes.
  if (changed) {
    await jobsRepository(db).update(job.id, patch);
    publish({ type: "job.changed", jobId: job.id, state: job.state, experimentId: job.experimentId ?? null });
  }
}

export type SubmitOutcome = "submitted" | "refused" | "unreachable" | "retry_later";

/**
 * Sends the job to its worker (submit, or prepare for environment jobs) and records the
 * answer. Never throws for worker trouble: the job row says what happened.
 */
export async function submitJob(db: Db, target: TargetRow, job: JobRow): Promise<SubmitOutcome> {
  const inFlight = submitsInFlight();
  if (inFlight.has(job.opId)) return "retry_later";
  inFlight.add(job.opId);
  const targets = targetsService(db);
  const repo = jobsRepository(db);
  try {
    if (job.jobName === "prepare") {
      const res = await targets.execOn(target, { protocol: WORKER_PROTOCOL, op: "prepare", opId: job.opId, recipe: job.recipe });
      if (res.receipt) await applyReceipt(db, job, res.receipt);
      else await transition(db, job.id, "succeeded", "already_ready", { detail: `environment ${res.environmentId} is ready`, lastContactAt: new Date() });
      return "submitted";
    }
    const res = await targets.execOn(target, {
      protocol: WORKER_PROTOCOL,
      op: "submit",
      opId: job.opId,
      intentHash: job.intentHash,
      recipe: job.recipe,
      job: job.jobName,
      environmentId: job.environmentId,
      input: JSON.parse(job.input) as Record<string, unknown>,
      priority: job.priority,
      resources: JSON.parse(job.resources),
      deadlineSeconds: job.deadlineSeconds,
      ...(job.slurmArray ? { slurmArray: parseStoredJson(ZSlurmArrayMember, job.slurmArray) ?? undefined } : {}),
    });
    await applyReceipt(db, job, res.receipt);
    return "submitted";
  } catch (err) {
    if (err instanceof WorkerUnreachable) {
      // Not seen by the worker (or its answer was lost): stays queued; the loop asks again.
      if (await repo.markUnreachable(job.id, new Date())) publish({ type: "job.changed", jobId: job.id, state: job.state, experimentId: job.experimentId ?? null });
      await repo.update(job.id, { queuedReason: `waiting for ${target.name} to answer: ${err.message}` });
      return "unreachable";
    }
    if (err instanceof WorkerRefused) {
      const cls = classifySubmitRefusal(err.code);
      if (cls.action === "retry") {
        await repo.update(job.id, { queuedReason: `${target.name} asked to try again (${err.code}): ${err.message}` });
        return "retry_later";
      }
      await transition(db, job.id, "failed", "submit_refused", { detail: `${target.name} refused the job (${err.code}, ${cls.fault} fault): ${err.message}` });
      return "refused";
    }
    await transition(db, job.id, "failed", "submit_refused", { detail: `could not hand the job to ${target.name}: ${(err as Error).message}` });
    return "refused";
  } finally {
    inFlight.delete(job.opId);
  }
}
