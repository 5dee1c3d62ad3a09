/**
 * Prisma access for a release's request aggregates: its all-time row (DeploymentStats)
 * and its minutes (DeploymentStatsBucket). Plain rows out. request-counts.ts writes them
 * in one transaction it opens and hands in (`Tx`).
 */
import { getDb, type Db } from "@/server/db/client";
import type { Tx } from "@/server/lifecycle/transition";

/** The counted columns of either row: requests, and errors and latency as JSON counts. */
export interface TallyColumns {
  requests: number;
  errors: string;
  latencyMs: string;
}

export function deploymentStatsRepository(db: Db | Tx = getDb()) {
  const minuteKey = (releaseId: string, start: Date) => ({ releaseId_start: { releaseId, start } });
  return {
    totalsOfDeployment: (deploymentId: string) => db.deploymentStats.findMany({ where: { deploymentId } }),
    totalsOfReleases: (releaseIds: string[]) => db.deploymentStats.findMany({ where: { releaseId: { in: releaseIds } } }),
    total: (releaseId: string) => db.deploymentStats.findUnique({ where: { releaseId } }),
    saveTotal: (releaseId: string, deploymentId: string, columns: TallyColumns) =>
      db.deploymentStats.upsert({ where: { releaseId }, create: { releaseId, deploymentId, ...columns }, update: columns }),
    /** The releases' minutes that started at `from` or later. */
    minutesSince: (releaseIds: string[], from: Date) => db.deploymentStatsBucket.findMany({ where: { releaseId: { in: releaseIds }, start: { gte: from } } }),
    minute: (releaseId: string, start: Date) => db.deploymentStatsBucket.findUnique({ where: minuteKey(releaseId, start) }),
    saveMinute: (releaseId: string, start: Date, deploymentId: string, columns: TallyColumns) =>
      db.deploymentStatsBucket.upsert({ where: minuteKey(releaseId, start), create: { releaseId, start, deploymentId, ...columns }, update: columns }),
    /** Every release's minutes that started before `before` (past the retention window). */
    deleteMinutesBefore: (before: Date) => db.deploymentStatsBucket.deleteMany({ where: { start: { lt: before } } }),
  };
}
