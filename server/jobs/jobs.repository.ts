/** Prisma access for jobs; results leave as plain objects (rows or views). */
import { getDb, type Db } from "@/server/db/client";
import { ZJobSlurm, type JobState } from "@/contracts/worker";
import { parseStoredJson } from "@/server/db/stored-json";
import { ACTIVE_STATES } from "./job-state";
import { parseWaitingFor } from "./waiting-words";
import type { JobDetailView, JobFields, JobView } from "./jobs.schema";

export interface JobRow extends JobFields {
  intentHash: string;
  input: string;
  resources: string;
  cancelRequestedAt: Date | null;
  unreachableSince: Date | null;
  lastContactAt: Date | null;
  usage: string | null;
  report: string | null;
  /** JSON ZWaitingFor from the worker's receipt (read with parseWaitingFor). */
  waitingFor: string | null;
  /** JSON ZJobSlurm: its Slurm jobs, on a Slurm computer. */
  slurm: string | null;
  /** JSON ZSlurmArrayMember: the Slurm job array it goes in; null: a job of its own. */
  slurmArray: string | null;
  createdAt: Date;
  startedAt: Date | null;
  endedAt: Date | null;
  experimentId?: string | null;
}

export type NewJob = Pick<
  JobRow,
  | "opId" | "intentHash" | "targetId" | "targetRevision" | "workerId" | "recipe" | "recipeVersion" | "jobName"
  | "environmentId" | "input" | "resources" | "priority" | "deadlineSeconds" | "queuedReason"
> & { experimentId?: string | null; step?: string | null; slurmArray?: string | null };

const parse = (s: string | null): unknown => {
  if (s === null) return null;
  try {
    return JSON.parse(s);
  } catch {
    return null;
  }
};
const iso = (d: Date | null) => d?.toISOString() ?? null;

export function toJobView(j: JobRow & { target: { name: string } }): JobView {
  return {
    id: j.id,
    opId: j.opId,
    targetId: j.targetId,
    targetName: j.target.name,
    targetRevision: j.targetRevision,
    workerId: j.workerId,
    recipe: j.recipe,
    recipeVersion: j.recipeVersion,
    jobName: j.jobName,
    environmentId: j.environmentId,
    state: j.state,
    reason: j.reason,
    detail: j.detail,
    queuedReason: j.queuedReason,
    waitingFor: parseWaitingFor(j.waitingFor),
    slurm: parseStoredJson(ZJobSlurm, j.slurm),
    // The words without the holders' names; jobs.service adds those (waiting-words.ts).
    waiting: j.state === "queued" ? j.queuedReason : null,
    workerJobId: j.workerJobId,
    priority: j.priority,
    deadlineSeconds: j.deadlineSeconds,
    resources: parse(j.resources),
    usage: parse(j.usage),
    outputSha256: j.outputSha256,
    cancelRequestedAt: iso(j.cancelRequestedAt),
    unreachableSince: iso(j.unreachableSince),
    lastContactAt: iso(j.lastContactAt),
    createdAt: j.createdAt.toISOString(),
    startedAt: iso(j.startedAt),
    endedAt: iso(j.endedAt),
  };
}

const withTarget = { target: { select: { name: true } } } as const;

export function jobsRepository(db: Db = getDb()) {
  return {
    find: (id: string): Promise<JobRow | null> => db.job.findUnique({ where: { id } }),
    findByOpId: (opId: string): Promise<JobRow | null> => db.job.findUnique({ where: { opId } }),
    view: async (id: string): Promise<JobView | null> => {
      const j = await db.job.findUnique({ where: { id }, include: withTarget });
      return j ? toJobView(j) : null;
    },
    detail: async (id: string): Promise<JobDetailView | null> => {
      const j = await db.job.findUnique({
        where: { id },
        include: { ...withTarget, transitions: { orderBy: { id: "asc" } } },
      });
      if (!j) return null;
      return {
        ...toJobView(j),
        input: parse(j.input),
        report: parse(j.report),
        transitions: j.transitions.map((t) => ({ from: t.from, to: t.to, reason: t.reason, at: t.at.toISOString() })),
      };
    },
    list: async (f: { targetId?: string; states?: JobState[]; limit: number }): Promise<JobView[]> =>
      (
        await db.job.findMany({
          where: { ...(f.targetId ? { targetId: f.targetId } : {}), ...(f.states ? { state: { in: f.states } } : {}) },
          include: withTarget,
          orderBy: [{ createdAt: "desc" }, { id: "desc" }],
          take: f.limit,
        })
      ).map(toJobView),
    /** A computer's succeeded jobs of one recipe job since a time, newest first (an earlier measurement to reuse). */
    succeededOf: (f: { targetId: string; recipe: string; jobName: string; since: Date; limit: number }): Promise<JobRow[]> =>
      db.job.findMany({
        where: { targetId: f.targetId, recipe: f.recipe, jobName: f.jobName, state: "succeeded", endedAt: { gte: f.since }, workerJobId: { not: null }, outputSha256: { not: null } },
        orderBy: [{ endedAt: "desc" }],
        take: f.limit,
      }),
    /** Every job the reconcile loop must look at: active ones (unknown included). */
    listActive: (): Promise<JobRow[]> =>
      db.job.findMany({ where: { state: { in: ACTIVE_STATES } }, orderBy: [{ createdAt: "asc" }] }),
    listActiveOn: (targetId: string): Promise<JobRow[]> =>
      db.job.findMany({ where: { targetId, state: { in: ACTIVE_STATES } }, orderBy: [{ createdAt: "asc" }] }),
    /** The computers that have a job to reconcile. */
    targetsWithActiveJobs: async (): Promise<{ id: string }[]> =>
      (await db.job.groupBy({ by: ["targetId"], where: { state: { in: ACTIVE_STATES } } })).map((g) => ({ id: g.targetId })),
    findActivePrepare: (targetId: string, environmentId: string): Promise<JobRow | null> =>
      db.job.findFirst({ where: { targetId, environmentId, jobName: "prepare", state: { in: ACTIVE_STATES } } }),
    /** Inserts the job and its first transition row (→ queued) in one transaction. */
    create: (data: NewJob): Promise<JobRow> =>
      db.$transaction(async (tx) => {
        const job = await tx.job.create({ data: { ...data, state: "queued" } });
        await tx.jobTransition.create({ data: { jobId: job.id, from: "none", to: "queued", reason: "admitted", at: job.createdAt } });
        return job;
      }),
    /** Non-state fields only; the state changes through job-state.transition(). */
    update: (id: string, data: Partial<Omit<JobRow, "id" | "state" | "reason">>) => db.job.update({ where: { id }, data }),
    markUnreachable: async (id: string, at: Date) =>
      (await db.job.updateMany({ where: { id, unreachableSince: null }, data: { unreachableSince: at } })).count > 0,
    requestCancel: async (id: string, at: Date) =>
      (await db.job.updateMany({ where: { id, cancelRequestedAt: null, state: { in: ACTIVE_STATES } }, data: { cancelRequestedAt: at } })).count > 0,
    countByStateAndTarget: () => db.job.groupBy({ by: ["state", "targetId"], _count: { _all: true } }),
  };
}
