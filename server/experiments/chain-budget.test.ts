import { describe, expect, it } from "vitest";
import { budgetNote } from "./chain-budget";
import { ZExperimentSettings } from "./experiments.schema";
import type { TabularContext } from "./pipelines/tabular";
import { stepSpec, tabularTestContext, trainInput } from "./pipelines/tabular-test-context";

const ctx = (over: Partial<TabularContext> = {}) => tabularTestContext(3, over);

const AFTER_TRAINING = ["predict", "baseline", "score_candidate", "score_baseline", "package"] as const;

describe("the budget", () => {
  it("gives evaluation and export their own limits, whatever is left of the budget", () => {
    for (const name of AFTER_TRAINING) {
      const spent = stepSpec(name).deadlineSeconds(ctx({ remainingSeconds: -40, datasetBytes: 2_800_000 }));
      expect(spent, name).toBe(stepSpec(name).deadlineSeconds(ctx({ remainingSeconds: 900, datasetBytes: 2_800_000 })));
      expect(spent, name).toBeGreaterThanOrEqual(300);
    }
    // Larger data, longer limits, bounded.
    expect(stepSpec("package").deadlineSeconds(ctx({ datasetBytes: 200e6 }))).toBe(1100);
    expect(stepSpec("package").deadlineSeconds(ctx({ datasetBytes: 5e9 }))).toBe(1800);
  });

  it("holds data preparation to the budget", () => {
    expect(stepSpec("split").deadlineSeconds(ctx({ remainingSeconds: 400 }))).toBe(400);
    expect(stepSpec("features_test").deadlineSeconds(ctx({ remainingSeconds: 5000 }))).toBe(900);
    expect(stepSpec("features_train").deadlineSeconds(ctx({ remainingSeconds: 10 }))).toBe(120);
  });

  it("stops a training that overran its own time limit only after a grace for saving the model", () => {
    const c = ctx({ remainingSeconds: 170 });
    const limit = trainInput(c).timeLimitSeconds ?? Number.NaN;
    expect(limit).toBe(110); // 170 s left minus the 60 s reserve
    expect(stepSpec("train").deadlineSeconds(c)).toBe(limit + 60);
    const long = ctx({ settings: ZExperimentSettings.parse({ target: "y", task: "regression", metric: "rmse", maxMinutes: 60 }), remainingSeconds: 3600 });
    expect(stepSpec("train").deadlineSeconds(long)).toBe((trainInput(long).timeLimitSeconds ?? Number.NaN) + 150);
  });

  it("says when evaluation and export ran past the budget, and whether training did too", () => {
    const start = new Date("2026-12-01T10:00:00Z");
    const at = (s: number) => new Date(start.getTime() + s * 1000);
    expect(budgetNote({ budgetStartedAt: start, budgetSeconds: 180, trainEndedAt: at(100), endedAt: at(170) })).toBeNull();
    expect(budgetNote({ budgetStartedAt: start, budgetSeconds: 180, trainEndedAt: at(150), endedAt: at(200) })).toBe(
      "Training finished within the 3 minute budget; evaluation and export ran 20 s past it, so the trained model was kept.",
    );
    expect(budgetNote({ budgetStartedAt: start, budgetSeconds: 30, trainEndedAt: at(45), endedAt: at(70) })).toBe(
      "Training used the whole 30 second budget; evaluation and export ran after it, 40 s past the budget, so the trained model was kept.",
    );
  });
});
