/** Prisma access for training computers (targets); results leave as plain objects. */
import { controllerJobLifecycle } from "@/contracts/lifecycles";
import { getDb, type Db } from "@/server/db/client";

export interface TargetRow {
  id: string;
  name: string;
  kind: string;
  revision: number;
  enabled: boolean;
  config: string;
  workerId: string | null;
  probe: string | null;
  probedAt: Date | null;
  unreachableSince: Date | null;
  lastError: string | null;
  hostKeyProblem: string | null;
  deletedAt: Date | null;
}

const select = {
  id: true,
  name: true,
  kind: true,
  revision: true,
  enabled: true,
  config: true,
  workerId: true,
  probe: true,
  probedAt: true,
  unreachableSince: true,
  lastError: true,
  hostKeyProblem: true,
  deletedAt: true,
} as const;

export function targetsRepository(db: Db = getDb()) {
  return {
    /** Computers in use (deleted ones keep their row for their finished jobs, but leave lists). */
    list: (): Promise<TargetRow[]> => db.target.findMany({ where: { deletedAt: null }, select, orderBy: [{ kind: "asc" }, { name: "asc" }] }),
    find: (id: string): Promise<TargetRow | null> => db.target.findUnique({ where: { id }, select }),
    findByName: (name: string): Promise<TargetRow | null> => db.target.findUnique({ where: { name }, select }),
    /** This computer: the one local target, registered by the server at start. */
    findLocal: (): Promise<TargetRow | null> => db.target.findFirst({ where: { kind: "local", deletedAt: null }, select, orderBy: { name: "asc" } }),
    /** Creates the row or, when it exists, keeps it (and its revision) but refreshes config. */
    upsertLocal: (name: string, config: string): Promise<TargetRow> =>
      db.target.upsert({ where: { name }, create: { name, kind: "local", config }, update: { config }, select }),
    create: (name: string, kind: "ssh" | "slurm", config: string): Promise<TargetRow> => db.target.create({ data: { name, kind, config }, select }),
    /** A change of how the computer is reached is a new revision; jobs keep the one they were admitted with. */
    updateConfig: (id: string, name: string, config: string, newRevision: boolean): Promise<TargetRow> =>
      db.target.update({ where: { id }, data: { name, config, ...(newRevision ? { revision: { increment: 1 }, probe: null, probedAt: null, workerId: null } : {}) }, select }),
    setEnabled: (id: string, enabled: boolean): Promise<TargetRow> => db.target.update({ where: { id }, data: { enabled }, select }),
    setHostKeyProblem: (id: string, problem: string | null) => db.target.update({ where: { id }, data: { hostKeyProblem: problem }, select }),
    softDelete: (id: string, name: string, at: Date) => db.target.update({ where: { id }, data: { name, deletedAt: at, enabled: false }, select }),
    /** Jobs that still need this computer's worker: live, or with an outcome not yet known. */
    countUnsettledJobs: (id: string) => db.job.count({ where: { targetId: id, state: { notIn: [...controllerJobLifecycle.terminal] } } }),
    saveProbe: (id: string, probe: string, workerId: string, at: Date) =>
      db.target.update({ where: { id }, data: { probe, workerId, probedAt: at, unreachableSince: null, lastError: null }, select }),
    /** Returns true when this call changed the recorded reachability. */
    markUnreachable: async (id: string, at: Date, error: string) =>
      (await db.target.updateMany({ where: { id, unreachableSince: null }, data: { unreachableSince: at, lastError: error } })).count > 0,
    markReachable: async (id: string) =>
      (await db.target.updateMany({ where: { id, OR: [{ NOT: { unreachableSince: null } }, { NOT: { hostKeyProblem: null } }] }, data: { unreachableSince: null, lastError: null, hostKeyProblem: null } }))
        .count > 0,
    setLastError: (id: string, error: string | null) => db.target.update({ where: { id }, data: { lastError: error }, select }),
  };
}
