/** Prisma access for searches and their trial ledger (issue 17). Plain rows out; state moves are search-store.ts's. */
import { searchLifecycle, type TrialState } from "@/contracts/lifecycles";
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
      /** JSON of server/experiments/placement.ts: set when it was started on "any" computer. */
      placement?: string | null;
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
    linkExperiment: (trialId: string, experimentId: string) => db.searchTrial.updateMany({ where: { id: trialId, experimentId: null }, data: { experimentId } }),
    experiment: (id: string) => db.experiment.findUnique({ where: { id } }),
    experimentByOpId: (opId: string) => db.experiment.findUnique({ where: { opId } }),
    dataset: (id: string) => db.dataset.findUnique({ where: { id } }),
    project: (id: string) => db.project.findUnique({ where: { id } }),
    events: (entityIds: string[]) => db.lifecycleEvent.findMany({ where: { lifecycle: { in: ["search", "trial"] }, entityId: { in: entityIds } }, orderBy: { id: "asc" } }),
  };
}
