/** Prisma access for wizard drafts (one per project); results leave as plain objects. */
import { getDb, type Db } from "@/server/db/client";

export interface DraftRow {
  projectId: string;
  data: string;
  revision: number;
  updatedAt: Date;
}

export function draftsRepository(db: Db = getDb()) {
  return {
    find: (projectId: string): Promise<DraftRow | null> => db.wizardDraft.findUnique({ where: { projectId } }),
    /** Creates revision 1; throws a unique violation when a concurrent save created it first. */
    create: (projectId: string, data: string): Promise<DraftRow> => db.wizardDraft.create({ data: { projectId, data, revision: 1 } }),
    /** Writes only when the stored revision is still `revision`; returns the count (0 = stale). */
    updateAtRevision: async (projectId: string, revision: number, data: string): Promise<number> =>
      (await db.wizardDraft.updateMany({ where: { projectId, revision }, data: { data, revision: { increment: 1 } } })).count,
    remove: async (projectId: string): Promise<void> => {
      await db.wizardDraft.deleteMany({ where: { projectId } });
    },
  };
}
