/**
 * What a bake decides from what its candidate's release has answered so far, kept free of
 * the database: go back to the incumbent (which limit it broke), pass, or wait. A bake
 * passes only after both its requests and its minutes; the health limits apply from the
 * monitor's minimum number of requests on, to all the bake's requests together; a serving
 * process that failed is a breach at once. With too few requests by the deadline the policy
 * keeps or reverts the candidate.
 */
import type { BakeBreach, BakePlan } from "@/contracts/lifecycles";

export interface BakeFigures {
  requests: number;
  failures: number;
  /** Upper bound (ms) of the bucket holding the 95th percentile; null: none yet, or slower than the last bucket. */
  p95Ms: number | null;
}

export type BakeOutcome =
  | { kind: "wait"; words: string }
  | { kind: "pass"; words: string }
  | { kind: "revert"; breach: BakeBreach; words: string };

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const minutesWord = (m: number) => `${m} minute${m === 1 ? "" : "s"}`;

export function judgeBake(plan: BakePlan, f: BakeFigures, elapsedMinutes: number, servingFailed: string | null): BakeOutcome {
  if (servingFailed) return { kind: "revert", breach: "serving_failed", words: `its serving process failed during the bake: ${servingFailed}` };
  const { limits } = plan;
  if (f.requests >= limits.minRequests) {
    const rate = f.failures / f.requests;
    if (rate > limits.maxFailureRate) {
      return { kind: "revert", breach: "failure_rate", words: `${f.failures} of ${f.requests} requests failed during the bake (${pct(rate)}; limit ${pct(limits.maxFailureRate)})` };
    }
    if (limits.maxP95Ms !== null && (f.p95Ms === null || f.p95Ms > limits.maxP95Ms)) {
      return { kind: "revert", breach: "p95", words: `p95 ${f.p95Ms === null ? "over 60 s" : `≤ ${f.p95Ms} ms`} over the bake's ${f.requests} requests (limit ${limits.maxP95Ms} ms)` };
    }
  }
  const seen = `${f.requests} request${f.requests === 1 ? "" : "s"}, ${f.failures} failed`;
  if (f.requests >= plan.requests && elapsedMinutes >= plan.minutes) {
    return { kind: "pass", words: `the bake passed: ${seen}, over ${minutesWord(Math.floor(elapsedMinutes))} (asked: ${plan.requests} requests and ${minutesWord(plan.minutes)})` };
  }
  if (elapsedMinutes >= plan.deadlineHours * 60) {
    const low = `only ${f.requests} of ${plan.requests} requests within ${plan.deadlineHours} hours`;
    return plan.lowTraffic === "revert"
      ? { kind: "revert", breach: "low_traffic", words: `${low}, too few to judge it (the policy reverts on too little traffic)` }
      : { kind: "pass", words: `kept with too little traffic to judge: ${low}, none of the limits broken (the policy keeps a candidate on too little traffic)` };
  }
  return { kind: "wait", words: `baking: ${seen} of ${plan.requests}; ${minutesWord(Math.floor(elapsedMinutes))} of ${minutesWord(plan.minutes)}` };
}
