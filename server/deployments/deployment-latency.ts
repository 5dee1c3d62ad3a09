/**
 * Requests and p50/p95 latency of each deployment's current release, read from the
 * aggregates of deployment-stats.ts. Those keep one cumulative histogram per release and
 * no time dimension, so the figures cover the release since it was deployed; its last
 * write (`lastAt`) tells whether the last hour had any request at all. A percentile is
 * the upper bound of the bucket it falls in ("p95 ≤ 250 ms"), never an invented value.
 */
import type { Db } from "@/server/db/client";
import { LATENCY_BUCKETS_MS } from "./deployment-stats";

export interface LatencySummary {
  releaseId: string;
  requests: number;
  /** Refused or failed requests, all classes together. */
  errors: number;
  /** Upper bound of the bucket holding the median / 95th percentile, ms; null: slower than the last bucket, or no requests. */
  p50Ms: number | null;
  p95Ms: number | null;
  /** When the last request was counted. */
  lastAt: Date;
  /** No request in the hour before the read: none of the figures is from the last hour. */
  quietLastHour: boolean;
}

const HOUR_MS = 60 * 60 * 1000;

/** The bucket bound (ms) under which a fraction `q` of the counted requests lie; null past the last bound. */
export function percentileMs(histogram: Record<string, number>, q: number): number | null {
  const total = Object.values(histogram).reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const rank = Math.ceil(q * total);
  let seen = 0;
  for (const bound of LATENCY_BUCKETS_MS) {
    seen += histogram[String(bound)] ?? 0;
    if (seen >= rank) return bound;
  }
  return null;
}

const counts = (json: string): Record<string, number> => {
  const parsed: unknown = JSON.parse(json);
  if (!parsed || typeof parsed !== "object") return {};
  return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, number] => Number.isInteger(e[1]) && (e[1] as number) >= 0));
};

/** deploymentId → the summary of its current release (absent: it has answered nothing yet). */
export async function latencyOf(db: Db, projectId: string, now = new Date()): Promise<Record<string, LatencySummary>> {
  const deployments = await db.deployment.findMany({ where: { projectId }, select: { id: true, currentReleaseId: true } });
  const releaseIds = deployments.flatMap((d) => (d.currentReleaseId ? [d.currentReleaseId] : []));
  const rows = await db.deploymentStats.findMany({ where: { releaseId: { in: releaseIds } } });
  return Object.fromEntries(
    rows.map((r) => {
      const latency = counts(r.latencyMs);
      const errors = Object.values(counts(r.errors)).reduce((a, b) => a + b, 0);
      const summary: LatencySummary = { releaseId: r.releaseId, requests: r.requests, errors, p50Ms: percentileMs(latency, 0.5), p95Ms: percentileMs(latency, 0.95), lastAt: r.updatedAt, quietLastHour: now.getTime() - r.updatedAt.getTime() > HOUR_MS };
      return [r.deploymentId, summary];
    }),
  );
}
