/**
 * Aggregates per release, the only trace a request leaves: how many, errors by class, and
 * a latency histogram. Never inputs, outputs or keys. Two rows take every request: the
 * release's all-time total (DeploymentStats) and its minute (DeploymentStatsBucket), which
 * answers "the last hour"; minutes past the retention window are deleted on the way.
 */
import type { Db } from "@/server/db/client";
import { bucketStart, countRequest, EMPTY_TALLY, figuresOf, lastHourFigures, lastHourFrom, parseCounts, retainedFrom, type Counts, type Tally, type WindowFigures } from "./stats-window";

export { LATENCY_BUCKETS_MS, latencyBucketOf as bucketOf } from "./stats-window";

export interface RequestOutcome {
  releaseId: string;
  deploymentId: string;
  ms: number;
  /** The refusal's code (bad_input, not_ready, …); absent for an answered request. */
  errorClass?: string;
}

const tallyOf = (row: { requests: number; errors: string; latencyMs: string } | null): Tally =>
  row ? { requests: row.requests, errors: parseCounts(row.errors), latencyMs: parseCounts(row.latencyMs) } : EMPTY_TALLY;

const columns = (t: Tally) => ({ requests: t.requests, errors: JSON.stringify(t.errors), latencyMs: JSON.stringify(t.latencyMs) });

export async function recordRequest(db: Db, o: RequestOutcome, at = new Date()): Promise<void> {
  const start = bucketStart(at);
  await db.$transaction(async (tx) => {
    const total = countRequest(tallyOf(await tx.deploymentStats.findUnique({ where: { releaseId: o.releaseId } })), o.ms, o.errorClass);
    await tx.deploymentStats.upsert({ where: { releaseId: o.releaseId }, create: { releaseId: o.releaseId, deploymentId: o.deploymentId, ...columns(total) }, update: columns(total) });
    const key = { releaseId_start: { releaseId: o.releaseId, start } };
    const minute = countRequest(tallyOf(await tx.deploymentStatsBucket.findUnique({ where: key })), o.ms, o.errorClass);
    await tx.deploymentStatsBucket.upsert({ where: key, create: { releaseId: o.releaseId, start, deploymentId: o.deploymentId, ...columns(minute) }, update: columns(minute) });
    await tx.deploymentStatsBucket.deleteMany({ where: { start: { lt: retainedFrom(at) } } });
  });
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
  const rows = await db.deploymentStatsBucket.findMany({ where: { releaseId: { in: releaseIds }, start: { gte: lastHourFrom(now) } } });
  const byRelease = new Map<string, (Tally & { start: Date })[]>();
  for (const r of rows) byRelease.set(r.releaseId, [...(byRelease.get(r.releaseId) ?? []), { ...tallyOf(r), start: r.start }]);
  return new Map(releaseIds.map((id) => [id, lastHourFigures(byRelease.get(id) ?? [], now)]));
}

/** The all-time and last-hour figures of each release that has answered or refused a request. */
export async function releaseStats(db: Db, where: { deploymentId: string } | { releaseIds: string[] }, now = new Date()): Promise<ReleaseStats[]> {
  const rows = await db.deploymentStats.findMany({ where: "deploymentId" in where ? { deploymentId: where.deploymentId } : { releaseId: { in: where.releaseIds } } });
  const hour = await lastHourOf(db, rows.map((r) => r.releaseId), now);
  return rows.map((r) => {
    const t = tallyOf(r);
    return { releaseId: r.releaseId, ...t, lastAt: r.updatedAt, allTime: figuresOf([t]), lastHour: hour.get(r.releaseId) ?? figuresOf([]) };
  });
}

export const statsOf = (db: Db, deploymentId: string, now = new Date()) => releaseStats(db, { deploymentId }, now);
