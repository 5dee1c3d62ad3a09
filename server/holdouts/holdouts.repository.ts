/** Reserved holdouts and the versions' trained rows (prisma/schema.prisma Holdout, VersionTrainedRows). */
import { getDb, type Db } from "@/server/db/client";

export type HoldoutRow = NonNullable<Awaited<ReturnType<ReturnType<typeof holdoutsRepository>["find"]>>>;

export function holdoutsRepository(db: Db = getDb()) {
  return {
    find: (id: string) => db.holdout.findUnique({ where: { id } }),
    findBySha: (projectId: string, sha256: string) => db.holdout.findUnique({ where: { projectId_sha256: { projectId, sha256 } } }),
    /** Newest first: the default holdout of a comparison is the newest. */
    ofProject: (projectId: string) => db.holdout.findMany({ where: { projectId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] }),
    create: (data: { projectId: string; name: string; sha256: string; bytes: number; fileName: string; format: string; rows: number; columns: string }) =>
      db.holdout.create({ data: { ...data, bytes: BigInt(data.bytes) } }),
    trainedRowsOf: (versionId: string) => db.versionTrainedRows.findUnique({ where: { versionId } }),
  };
}
