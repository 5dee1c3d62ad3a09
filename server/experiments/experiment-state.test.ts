import { describe, expect, it } from "vitest";
import { deriveStatus, EXPERIMENT_STATUSES, EXPERIMENT_TRANSITIONS, isExperimentTerminal } from "./experiment-state";
import { compareReceipts, type ReceiptLike } from "./compare";

describe("experiment status", () => {
  it("is running while steps remain, and succeeded only when the chain is complete", () => {
    expect(deriveStatus([], false)).toBe("running");
    expect(deriveStatus(["succeeded", "running"], false)).toBe("running");
    expect(deriveStatus(["succeeded", "succeeded"], true)).toBe("succeeded");
  });

  it("takes the first of failed, cancelled, timed_out, unknown among its jobs", () => {
    expect(deriveStatus(["succeeded", "timed_out", "failed"], false)).toBe("failed");
    expect(deriveStatus(["cancelled", "unknown"], false)).toBe("cancelled");
    expect(deriveStatus(["timed_out", "unknown"], false)).toBe("timed_out");
    expect(deriveStatus(["running", "unknown"], false)).toBe("unknown");
  });

  it("has no way out of a terminal status, and unknown can still settle", () => {
    for (const s of EXPERIMENT_STATUSES) {
      if (isExperimentTerminal(s)) expect(EXPERIMENT_TRANSITIONS[s]).toEqual([]);
    }
    expect(EXPERIMENT_TRANSITIONS.unknown).toEqual(expect.arrayContaining(["succeeded", "failed", "running"]));
  });
});

const receipt = (over: Partial<ReceiptLike>): ReceiptLike => ({
  primaryMetric: "accuracy",
  direction: "higher_is_better",
  primaryValue: 0.9,
  contractSha256: "c1",
  evaluationContract: { splitSha256: "s1", primaryMetric: "accuracy" },
  ...over,
});

describe("better than baseline", () => {
  it("compares only receipts with identical contracts", () => {
    const r = compareReceipts(receipt({}), receipt({ contractSha256: "c2", evaluationContract: { splitSha256: "s2", primaryMetric: "accuracy" } }));
    expect(r).toMatchObject({ comparable: false, better: null });
    expect(r.reason).toMatch(/splitSha256/);
  });

  it("respects the metric's direction, and a tie is not better", () => {
    expect(compareReceipts(receipt({ primaryValue: 0.9 }), receipt({ primaryValue: 0.5 })).better).toBe(true);
    const rmse = { primaryMetric: "rmse", direction: "lower_is_better" as const };
    expect(compareReceipts(receipt({ ...rmse, primaryValue: 10 }), receipt({ ...rmse, primaryValue: 20 })).better).toBe(true);
    expect(compareReceipts(receipt({ ...rmse, primaryValue: 30 }), receipt({ ...rmse, primaryValue: 20 })).better).toBe(false);
    expect(compareReceipts(receipt({ primaryValue: 0.5 }), receipt({ primaryValue: 0.5 })).better).toBe(false);
  });
});
