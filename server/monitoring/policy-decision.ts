/**
 * What a health policy decides from its release's closed windows, kept free of the
 * database: fail the release (which limit it broke), stop for the owner (too many windows
 * in a row without enough requests), or nothing yet. Windows without any request (a
 * `check` on a quiet deployment) are no evidence either way and are skipped.
 */
import type { HealthPolicy, MonitorWindow } from "@/contracts/monitoring/monitoring";

export type Breach = "failure_rate" | "p95" | "consecutive_errors";
export type PolicyDecision = { kind: "none" } | { kind: "fail"; breach: Breach; words: string } | { kind: "wait"; words: string };

type Window = Pick<MonitorWindow, "seq" | "closedAt" | "n" | "failureRate" | "p95Ms" | "errorStreak">;

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** Whether one closed window broke the policy's limits (null: it did not, or had too few requests to say). */
export function breachOf(p: HealthPolicy, w: Window): { breach: Breach; words: string } | null {
  if (w.n < p.minRequests) return null;
  if ((w.failureRate ?? 0) > p.maxFailureRate) return { breach: "failure_rate", words: `window ${w.seq}: ${pct(w.failureRate ?? 0)} of ${w.n} requests failed (limit ${pct(p.maxFailureRate)})` };
  // A null p95 with requests is slower than the last latency bucket.
  if (p.maxP95Ms !== null && (w.p95Ms ?? Infinity) > p.maxP95Ms) return { breach: "p95", words: `window ${w.seq}: p95 ${w.p95Ms === null ? "over 60 s" : `≤ ${w.p95Ms} ms`} (limit ${p.maxP95Ms} ms)` };
  return null;
}

/** `windows`: the policy's own (from the window it was armed at), oldest first; open ones are ignored. */
export function decide(p: HealthPolicy, windows: readonly Window[]): PolicyDecision {
  const closed = windows.filter((w) => w.closedAt && w.n > 0);
  const streak = closed.find((w) => w.errorStreak >= p.consecutiveErrors);
  if (streak) return { kind: "fail", breach: "consecutive_errors", words: `window ${streak.seq}: ${streak.errorStreak} requests in a row failed (limit ${p.consecutiveErrors})` };
  const breaches = closed.flatMap((w) => breachOf(p, w) ?? []);
  if (breaches.length >= p.failureLimit) {
    const last = breaches.at(-1)!;
    const count = p.failureLimit > 1 ? `${breaches.length} windows over the limits, the last ${last.words}` : last.words;
    return { kind: "fail", breach: last.breach, words: count };
  }
  let quiet = 0;
  for (let i = closed.length - 1; i >= 0 && closed[i]!.n < p.minRequests; i--) quiet += 1;
  if (quiet >= p.inconclusiveLimit) {
    return { kind: "wait", words: `the last ${quiet} windows had fewer than ${p.minRequests} requests each, too few to judge the release: arm the policy again once it has traffic` };
  }
  return { kind: "none" };
}
