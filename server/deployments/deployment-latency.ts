/**
 * Requests and p50/p95 latency of each deployment's current release, all-time and in the
 * last hour, read from the aggregates of deployment-stats.ts. A percentile is the upper
 * bound of the bucket it falls in ("p95 ≤ 250 ms"), never an invented value.
 */
import type { Db } from "@/server/db/client";
import { releaseStats } from "./deployment-stats";
import { deploymentsRepository } from "./deployments.repository";
import type { WindowFigures } from "./stats-window";

export interface LatencySummary extends WindowFigures {
  releaseId: string;
  /** When the last request was counted. */
  lastAt: Date;
  /** The last hour's own figures (the current minute and the 59 before it). */
  lastHour: WindowFigures;
  /** No request in the last hour: the top-level figures are all from before it. */
  quietLastHour: boolean;
}

/** deploymentId → the summary of its current release (absent: it has answered nothing yet). */
export async function latencyOf(db: Db, projectId: string, now = new Date()): Promise<Record<string, LatencySummary>> {
  const deployments = await deploymentsRepository(db).currentReleasesInProject(projectId);
  const deploymentOf = new Map(deployments.flatMap((d) => (d.currentReleaseId ? [[d.currentReleaseId, d.id] as const] : [])));
  const stats = await releaseStats(db, { releaseIds: [...deploymentOf.keys()] }, now);
  return Object.fromEntries(
    stats.map((s) => {
      const summary: LatencySummary = { releaseId: s.releaseId, ...s.allTime, lastAt: s.lastAt, lastHour: s.lastHour, quietLastHour: s.lastHour.requests === 0 };
      return [deploymentOf.get(s.releaseId)!, summary];
    }),
  );
}
