/**
 * Requests and latency of a deployment's current release in words. The aggregates are
 * cumulative per release (server/deployments/deployment-latency.ts), so the line says
 * "since release N" and, when the last request is older than an hour, that the last hour
 * had none; percentiles are bucket bounds ("p95 ≤ 250 ms").
 */
import type { LatencySummary } from "./deployment-types";

const bound = (ms: number | null) => (ms === null ? "over 60 s" : ms >= 1000 ? `≤ ${ms / 1000} s` : `≤ ${ms} ms`);

export function latencyWords(s: LatencySummary | undefined, releaseNumber: number | null): string {
  if (!s || s.requests === 0) return "No requests yet.";
  const since = releaseNumber === null ? "" : ` since release ${releaseNumber}`;
  const refused = s.errors ? `, ${s.errors} refused or failed` : "";
  const figures = `${s.requests} request${s.requests === 1 ? "" : "s"}${since}${refused}: p50 ${bound(s.p50Ms)}, p95 ${bound(s.p95Ms)}`;
  return s.quietLastHour ? `No requests in the last hour (${figures}).` : `${figures}; last one at ${new Date(s.lastAt).toLocaleTimeString()}.`;
}
