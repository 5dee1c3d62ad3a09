/** Prisma access for owner settings (Setting rows of validated JSON). */
import { getDb, type Db } from "@/server/db/client";

export interface SettingRow {
  key: string;
  value: string;
  revision: number;
}

export function settingsRepository(db: Db = getDb()) {
  return {
    find: (key: string): Promise<SettingRow | null> => db.setting.findUnique({ where: { key }, select: { key: true, value: true, revision: true } }),
    /** First save: fails with a unique violation when someone else created it meanwhile. */
    create: (key: string, value: string) => db.setting.create({ data: { key, value, revision: 1 } }),
    /** Writes only when the revision still matches; returns the count (0 = stale). */
    updateAtRevision: async (key: string, revision: number, value: string) =>
      (await db.setting.updateMany({ where: { key, revision }, data: { value, revision: { increment: 1 } } })).count,
  };
}
