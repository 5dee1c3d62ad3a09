/**
 * Requests and latency of a deployment's current release in words: the last hour first
 * (the current minute and the 59 before it), then the total since the release was
 * deployed (server/deployments/deployment-latency.ts). Percentiles are bucket bounds
 * ("p95 ≤ 250 ms").
 */
import type { LatencySummary } from "./deployment-types";

const bound = (ms: number | null) => (ms === null ? "over 60 s" : ms >= 1000 ? `≤ ${ms / 1000} s` : `≤ ${ms} ms`);

type Figures = Pick<LatencySummary, "requests" | "errors" | "p50Ms" | "p95Ms">;

const figures = (f: Figures, since: string) =>
  `${f.requests} request${f.requests === 1 ? "" : "s"}${since}${f.errors ? `, ${f.errors} refused or failed` : ""}: p50 ${bound(f.p50Ms)}, p95 ${bound(f.p95Ms)}`;

export function latencyWords(s: LatencySummary | undefined, releaseNumber: number | null): string {
  if (!s || s.requests === 0) return "No requests yet.";
  const since = releaseNumber === null ? "" : ` since release ${releaseNumber}`;
  const allTime = figures(s, since);
  if (s.quietLastHour) return `No requests in the last hour (${allTime}).`;
  return `Last hour: ${figures(s.lastHour, "")}. In all, ${allTime}; last one at ${new Date(s.lastAt).toLocaleTimeString()}.`;
}
