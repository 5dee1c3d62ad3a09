/** Prisma access for training computers (targets); results leave as plain objects. */
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
} as const;

export function targetsRepository(db: Db = getDb()) {
  return {
    list: (): Promise<TargetRow[]> => db.target.findMany({ select, orderBy: [{ kind: "asc" }, { name: "asc" }] }),
    find: (id: string): Promise<TargetRow | null> => db.target.findUnique({ where: { id }, select }),
    findByName: (name: string): Promise<TargetRow | null> => db.target.findUnique({ where: { name }, select }),
    /** Creates the row or, when it exists, keeps it (and its revision) but refreshes config. */
    upsertLocal: (name: string, config: string): Promise<TargetRow> =>
      db.target.upsert({ where: { name }, create: { name, kind: "local", config }, update: { config }, select }),
    saveProbe: (id: string, probe: string, workerId: string, at: Date) =>
      db.target.update({ where: { id }, data: { probe, workerId, probedAt: at, unreachableSince: null, lastError: null }, select }),
    /** Returns true when this call changed the recorded reachability. */
    markUnreachable: async (id: string, at: Date, error: string) =>
      (await db.target.updateMany({ where: { id, unreachableSince: null }, data: { unreachableSince: at, lastError: error } })).count > 0,
    markReachable: async (id: string) =>
      (await db.target.updateMany({ where: { id, NOT: { unreachableSince: null } }, data: { unreachableSince: null, lastError: null } })).count > 0,
    setLastError: (id: string, error: string | null) => db.target.update({ where: { id }, data: { lastError: error }, select }),
  };
}
