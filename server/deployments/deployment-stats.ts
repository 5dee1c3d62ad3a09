/**
 * Aggregates per release, the only trace a request leaves: how many, errors by class, and
 * a latency histogram. Never inputs, outputs or keys.
 */
import { z } from "zod";
import type { Db } from "@/server/db/client";

/** Upper bounds (ms) of the latency buckets; slower requests count under "inf". */
export const LATENCY_BUCKETS_MS = [5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000, 30_000, 60_000] as const;

const ZCounts = z.record(z.string(), z.number().int().nonnegative());

export const bucketOf = (ms: number): string => String(LATENCY_BUCKETS_MS.find((b) => ms <= b) ?? "inf");

export interface RequestOutcome {
  releaseId: string;
  deploymentId: string;
  ms: number;
  /** The refusal's code (bad_input, not_ready, …); absent for an answered request. */
  errorClass?: string;
}

export async function recordRequest(db: Db, o: RequestOutcome): Promise<void> {
  await db.$transaction(async (tx) => {
    const row = await tx.deploymentStats.findUnique({ where: { releaseId: o.releaseId } });
    const errors = ZCounts.parse(JSON.parse(row?.errors ?? "{}"));
    const latency = ZCounts.parse(JSON.parse(row?.latencyMs ?? "{}"));
    if (o.errorClass) errors[o.errorClass] = (errors[o.errorClass] ?? 0) + 1;
    const bucket = bucketOf(o.ms);
    latency[bucket] = (latency[bucket] ?? 0) + 1;
    const data = { requests: (row?.requests ?? 0) + 1, errors: JSON.stringify(errors), latencyMs: JSON.stringify(latency) };
    await tx.deploymentStats.upsert({ where: { releaseId: o.releaseId }, create: { releaseId: o.releaseId, deploymentId: o.deploymentId, ...data }, update: data });
  });
}

export interface ReleaseStats {
  releaseId: string;
  requests: number;
  errors: Record<string, number>;
  latencyMs: Record<string, number>;
}

export async function statsOf(db: Db, deploymentId: string): Promise<ReleaseStats[]> {
  const rows = await db.deploymentStats.findMany({ where: { deploymentId } });
  return rows.map((r) => ({ releaseId: r.releaseId, requests: r.requests, errors: ZCounts.parse(JSON.parse(r.errors)), latencyMs: ZCounts.parse(JSON.parse(r.latencyMs)) }));
}
