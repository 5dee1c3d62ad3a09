/**
 * Aggregates per release, the only trace a request leaves: how many, errors by class, and
 * a latency histogram. Never inputs, outputs or keys. Two rows take every request: the
 * release's all-time total (DeploymentStats) and its minute (DeploymentStatsBucket), which
 * answers "the last hour"; minutes past the retention window are deleted on the way.
 * Counted in memory and written in batches (request-counts.ts); every read flushes first.
 */
import type { Db } from "@/server/db/client";
import { deploymentStatsRepository } from "./deployment-stats.repository";
import { countRequestLater, flushRequestCounts, type RequestOutcome } from "./request-counts";
import { notifyObservers } from "./request-observers";
import type { Row } from "./predict-rows";
import { figuresOf, lastHourFigures, lastHourFrom, tallyOfRow, type Counts, type Tally, type WindowFigures } from "./stats-window";

export { LATENCY_BUCKETS_MS, latencyBucketOf as bucketOf } from "./stats-window";
export { flushRequestCounts, type RequestOutcome } from "./request-counts";

/**
 * Count one request: in memory now, in the database within a few seconds (request-counts.ts).
 * `rows` (the checked rows, when the body was read) go to the request observers (monitors) and no further.
 */
export async function recordRequest(db: Db, o: RequestOutcome, at = new Date(), rows: readonly Row[] | null = null): Promise<void> {
  countRequestLater(db, o, at);
  notifyObservers(db, { ...o, rows, at });
}

export interface ReleaseStats {
  releaseId: string;
  /** All-time, as counted: requests, errors by class, latency bucket bound (ms) -> count. */
  requests: number;
  errors: Counts;
  latencyMs: Counts;
  /** When the last request was counted. */
  lastAt: Date;
  /** The same figures side by side: since the release was deployed, and the last hour (the current minute and the 59 before it). */
  allTime: WindowFigures;
  lastHour: WindowFigures;
}

/** release id → its minutes of the last hour before `now`. */
async function lastHourOf(db: Db, releaseIds: string[], now: Date): Promise<Map<string, WindowFigures>> {
  const rows = await deploymentStatsRepository(db).minutesSince(releaseIds, lastHourFrom(now));
  const byRelease = new Map<string, (Tally & { start: Date })[]>();
  for (const r of rows) byRelease.set(r.releaseId, [...(byRelease.get(r.releaseId) ?? []), { ...tallyOfRow(r), start: r.start }]);
  return new Map(releaseIds.map((id) => [id, lastHourFigures(byRelease.get(id) ?? [], now)]));
}

/** The all-time and last-hour figures of each release that has answered or refused a request. */
export async function releaseStats(db: Db, where: { deploymentId: string } | { releaseIds: string[] }, now = new Date()): Promise<ReleaseStats[]> {
  await flushRequestCounts(db);
  const repo = deploymentStatsRepository(db);
  const rows = await ("deploymentId" in where ? repo.totalsOfDeployment(where.deploymentId) : repo.totalsOfReleases(where.releaseIds));
  const hour = await lastHourOf(db, rows.map((r) => r.releaseId), now);
  return rows.map((r) => {
    const t = tallyOfRow(r);
    return { releaseId: r.releaseId, ...t, lastAt: r.updatedAt, allTime: figuresOf([t]), lastHour: hour.get(r.releaseId) ?? figuresOf([]) };
  });
}

export const statsOf = (db: Db, deploymentId: string, now = new Date()) => releaseStats(db, { deploymentId }, now);
