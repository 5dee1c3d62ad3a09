/** Reserved holdouts and the versions' exclusion evidence (prisma/schema.prisma Holdout, VersionExclusion). */
import { getDb, type Db } from "@/server/db/client";

export type HoldoutRow = NonNullable<Awaited<ReturnType<ReturnType<typeof holdoutsRepository>["find"]>>>;

export function holdoutsRepository(db: Db = getDb()) {
  return {
    find: (id: string) => db.holdout.findUnique({ where: { id } }),
    findBySha: (projectId: string, sha256: string) => db.holdout.findUnique({ where: { projectId_sha256: { projectId, sha256 } } }),
    /** Newest first: the default holdout of a comparison is the newest. */
    ofProject: (projectId: string) => db.holdout.findMany({ where: { projectId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] }),
    create: (data: { projectId: string; name: string; sha256: string; bytes: number; fileName: string; kind: "table" | "examples"; format: string; rows: number; columns: string }) =>
      db.holdout.create({ data: { ...data, bytes: BigInt(data.bytes) } }),
    exclusionOf: (versionId: string) => db.versionExclusion.findUnique({ where: { versionId } }),
    remove: (id: string) => db.holdout.delete({ where: { id } }),
    /** Whatever else keeps the same bytes: datasets (any project) and other projects' holdouts. */
    otherHoldersOf: async (sha256: string, exceptId: string) =>
      (await db.dataset.count({ where: { snapshotSha256: sha256 } })) + (await db.holdout.count({ where: { sha256, id: { not: exceptId } } })),
    /** The project's experiments whose split was pinned to keep these rows out (ended ones too: the caller filters). */
    experimentsPinning: (projectId: string, sha256: string) =>
      db.experiment.findMany({ where: { projectId, holdouts: { contains: sha256 } }, select: { id: true, name: true, status: true } }),
    /** The project's searches started since the holdout was reserved: their later trials pin it too. */
    searchesSince: (projectId: string, since: Date) => db.search.findMany({ where: { projectId, createdAt: { gte: since } }, select: { id: true, name: true, status: true } }),
  };
}
