import { describe, expect, it } from "vitest";
import type { BakePlan } from "@/contracts/lifecycles";
import { judgeBake } from "./bake-judge";

const plan = (over: Partial<BakePlan> = {}): BakePlan => ({
  requests: 20,
  minutes: 15,
  deadlineHours: 24,
  lowTraffic: "keep",
  limits: { maxFailureRate: 0.05, maxP95Ms: null, minRequests: 20 },
  limitsFrom: "defaults",
  ...over,
});
const ok = { requests: 40, failures: 0, p95Ms: 25 };

describe("judgeBake", () => {
  it("passes only after both the requests and the minutes", () => {
    expect(judgeBake(plan(), ok, 14.9, null)).toMatchObject({ kind: "wait", words: "baking: 40 requests, 0 failed of 20; 14 minutes of 15 minutes" });
    expect(judgeBake(plan(), { ...ok, requests: 19 }, 60, null).kind).toBe("wait");
    expect(judgeBake(plan(), ok, 15, null)).toMatchObject({ kind: "pass", words: expect.stringMatching(/^the bake passed: 40 requests, 0 failed, over 15 minutes/) });
    // No minutes asked: the requests alone decide.
    expect(judgeBake(plan({ minutes: 0 }), { ...ok, requests: 20 }, 0, null).kind).toBe("pass");
  });

  it("reverts on a failure rate over the limit, once the monitor's minimum of requests is there", () => {
    expect(judgeBake(plan(), { requests: 19, failures: 19, p95Ms: 5 }, 1, null).kind).toBe("wait");
    expect(judgeBake(plan(), { requests: 20, failures: 2, p95Ms: 5 }, 1, null)).toEqual({
      kind: "revert",
      breach: "failure_rate",
      words: "2 of 20 requests failed during the bake (10.0%; limit 5.0%)",
    });
    // At the limit is not over it.
    expect(judgeBake(plan(), { requests: 20, failures: 1, p95Ms: 5 }, 15, null).kind).toBe("pass");
  });

  it("reverts on a slow p95 only where the limits set one", () => {
    const slow = { requests: 20, failures: 0, p95Ms: 500 };
    expect(judgeBake(plan(), slow, 15, null).kind).toBe("pass");
    expect(judgeBake(plan({ limits: { maxFailureRate: 0.05, maxP95Ms: 250, minRequests: 20 } }), slow, 15, null)).toMatchObject({ kind: "revert", breach: "p95" });
    expect(judgeBake(plan({ limits: { maxFailureRate: 0.05, maxP95Ms: 250, minRequests: 20 } }), { ...slow, p95Ms: null }, 1, null)).toMatchObject({
      kind: "revert",
      words: expect.stringContaining("p95 over 60 s"),
    });
  });

  it("reverts at once when the serving process failed, whatever the counts", () => {
    expect(judgeBake(plan(), { requests: 0, failures: 0, p95Ms: null }, 0, "The serving process ended: killed")).toEqual({
      kind: "revert",
      breach: "serving_failed",
      words: "its serving process failed during the bake: The serving process ended: killed",
    });
  });

  it("with too few requests by the deadline, keeps or reverts as the policy says", () => {
    const quiet = { requests: 3, failures: 0, p95Ms: 5 };
    expect(judgeBake(plan(), quiet, 24 * 60 - 1, null).kind).toBe("wait");
    expect(judgeBake(plan(), quiet, 24 * 60, null)).toMatchObject({ kind: "pass", words: expect.stringContaining("only 3 of 20 requests within 24 hours") });
    expect(judgeBake(plan({ lowTraffic: "revert" }), quiet, 24 * 60, null)).toMatchObject({ kind: "revert", breach: "low_traffic" });
  });
});
