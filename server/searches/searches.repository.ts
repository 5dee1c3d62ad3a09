/** Prisma access for searches and their trial ledger (issue 17). Plain rows out. */
import { searchLifecycle, trialLifecycle, type SearchState, type TrialState } from "@/contracts/lifecycles";
import { getDb, type Db } from "@/server/db/client";

export type SearchRow = NonNullable<Awaited<ReturnType<Db["search"]["findUnique"]>>>;
export type TrialRow = NonNullable<Awaited<ReturnType<Db["searchTrial"]["findUnique"]>>>;

export function searchesRepository(db: Db = getDb()) {
  return {
    find: (id: string) => db.search.findUnique({ where: { id } }),
    findByOpId: (opId: string) => db.search.findUnique({ where: { opId } }),
    list: (projectId: string) => db.search.findMany({ where: { projectId }, orderBy: { createdAt: "desc" } }),
    active: () => db.search.findMany({ where: { status: { in: [...searchLifecycle.active] } }, select: { id: true } }),
    countInProject: (projectId: string) => db.search.count({ where: { projectId } }),
    create: (data: {
      projectId: string;
      opId: string;
      intentHash: string;
      name: string;
      targetId: string;
      datasetId: string;
      snapshotSha256: string;
      spec: string;
      createdBy: string;
    }) =>
      db.$transaction(async (tx) => {
        // The clock starts once the computer has the recipes' tools (search-advance.ts toolsReady).
        const s = await tx.search.create({ data: { ...data, status: "running", runningSince: null } });
        await tx.lifecycleEvent.create({ data: { lifecycle: "search", entityId: s.id, from: "none", to: "running", reason: "started" } });
        return s;
      }),
    /** One status move, only from the status it was read in (a concurrent move wins; the caller reads again). */
    move: (s: SearchRow, to: SearchState, fields: { reason?: string | null; wallUsedSeconds?: number; runningSince?: Date | null; outcome?: string; endedAt?: Date }) => {
      if (!searchLifecycle.canMove(s.status, to)) throw new Error(`search ${s.id}: ${s.status} → ${to} is not allowed`);
      return db.$transaction(async (tx) => {
        const r = await tx.search.updateMany({ where: { id: s.id, status: s.status, revision: s.revision }, data: { status: to, revision: { increment: 1 }, ...fields } });
        if (r.count === 1) await tx.lifecycleEvent.create({ data: { lifecycle: "search", entityId: s.id, from: s.status, to, reason: fields.reason ?? null } });
        return r.count === 1;
      });
    },
    /** Starts the clock of a running search that has none (its first trial can be booked now). */
    startClock: (id: string) => db.search.updateMany({ where: { id, status: "running", runningSince: null }, data: { runningSince: new Date() } }),
    setFinal: (id: string, finalExperimentId: string, outcome: string) => db.search.updateMany({ where: { id, finalExperimentId: null }, data: { finalExperimentId, outcome } }),
    trials: (searchId: string) => db.searchTrial.findMany({ where: { searchId }, orderBy: { number: "asc" } }),
    trial: (id: string) => db.searchTrial.findUnique({ where: { id } }),
    trialByOpId: (opId: string) => db.searchTrial.findUnique({ where: { opId } }),
    nextNumber: async (searchId: string) => ((await db.searchTrial.aggregate({ where: { searchId }, _max: { number: true } }))._max.number ?? 0) + 1,
    /** A ledger row; the unique (search, number) makes a second insert of the same trial fail, not double-book. */
    addTrial: (data: {
      searchId: string;
      number: number;
      opId?: string;
      status: TrialState;
      proposer: string;
      hypothesis?: string | null;
      params: string;
      rejection?: string;
      reservedSeconds?: number;
      reservedAt?: Date;
    }) =>
      db.$transaction(async (tx) => {
        const t = await tx.searchTrial.create({ data });
        await tx.lifecycleEvent.create({ data: { lifecycle: "trial", entityId: t.id, from: "none", to: data.status, reason: data.rejection ?? null } });
        return t;
      }),
    moveTrial: (t: TrialRow, to: TrialState, fields: { reason?: string | null; experimentId?: string; reservedSeconds?: number; reservedAt?: Date; usedSeconds?: number; validationValue?: number | null; endedAt?: Date }) => {
      if (!trialLifecycle.canMove(t.status, to)) throw new Error(`trial ${t.id}: ${t.status} → ${to} is not allowed`);
      return db.$transaction(async (tx) => {
        const r = await tx.searchTrial.updateMany({ where: { id: t.id, status: t.status }, data: { status: to, ...fields } });
        if (r.count === 1) await tx.lifecycleEvent.create({ data: { lifecycle: "trial", entityId: t.id, from: t.status, to, reason: fields.reason ?? null } });
        return r.count === 1;
      });
    },
    linkExperiment: (trialId: string, experimentId: string) => db.searchTrial.updateMany({ where: { id: trialId, experimentId: null }, data: { experimentId } }),
    experiment: (id: string) => db.experiment.findUnique({ where: { id } }),
    experimentByOpId: (opId: string) => db.experiment.findUnique({ where: { opId } }),
    dataset: (id: string) => db.dataset.findUnique({ where: { id } }),
    project: (id: string) => db.project.findUnique({ where: { id } }),
    events: (entityIds: string[]) => db.lifecycleEvent.findMany({ where: { lifecycle: { in: ["search", "trial"] }, entityId: { in: entityIds } }, orderBy: { id: "asc" } }),
  };
}
