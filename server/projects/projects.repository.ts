/** Prisma access for projects; results leave as plain objects. */
import { getDb, type Db } from "@/server/db/client";
import type { ProjectView } from "./projects.schema";

type Row = { id: string; name: string; revision: number; archivedAt: Date | null; defaultTargetId: string | null; createdAt: Date; updatedAt: Date };

export const toView = (p: Row): ProjectView => ({
  id: p.id,
  name: p.name,
  revision: p.revision,
  archived: p.archivedAt !== null,
  archivedAt: p.archivedAt?.toISOString() ?? null,
  defaultTargetId: p.defaultTargetId,
  createdAt: p.createdAt.toISOString(),
  updatedAt: p.updatedAt.toISOString(),
});

export const nameKey = (name: string) => name.toLocaleLowerCase("en");

export function projectsRepository(db: Db = getDb()) {
  return {
    list: async (includeArchived: boolean) =>
      (
        await db.project.findMany({
          where: includeArchived ? {} : { archivedAt: null },
          orderBy: [{ archivedAt: "asc" }, { name: "asc" }],
        })
      ).map(toView),
    find: async (id: string) => {
      const row = await db.project.findUnique({ where: { id } });
      return row ? toView(row) : null;
    },
    findByName: async (name: string) => {
      const row = await db.project.findUnique({ where: { nameKey: nameKey(name) } });
      return row ? toView(row) : null;
    },
    setDefaultTarget: async (id: string, targetId: string | null) => toView(await db.project.update({ where: { id }, data: { defaultTargetId: targetId } })),
    create: async (name: string) => toView(await db.project.create({ data: { name, nameKey: nameKey(name) } })),
    /** Updates only when the revision still matches; returns the count (0 = stale or gone). */
    updateAtRevision: async (
      id: string,
      revision: number,
      data: { name?: string; archivedAt?: Date | null },
    ) =>
      (
        await db.project.updateMany({
          where: { id, revision },
          data: {
            ...(data.name !== undefined ? { name: data.name, nameKey: nameKey(data.name) } : {}),
            ...(data.archivedAt !== undefined ? { archivedAt: data.archivedAt } : {}),
            revision: { increment: 1 },
          },
        })
      ).count,
  };
}
