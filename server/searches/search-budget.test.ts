import { describe, expect, it } from "vitest";
import type { SearchSpec } from "@/contracts/searches/search-spec";
import { TABULAR_SPACE } from "@/contracts/searches/tabular-space";
import { finalReserveSeconds, nextReservation, stopReason, trialsWithoutGain, wallUsedSeconds } from "./search-budget";
import { spaceViolations } from "./proposal-check";
import { testSearchSpec } from "@/server/testing/search-spec";

const spec = (over: Partial<SearchSpec> = {}): SearchSpec => testSearchSpec(over);

describe("search budget", () => {
  it("counts wall time only while running", () => {
    const since = new Date("2026-01-01T00:00:00Z");
    expect(wallUsedSeconds({ wallUsedSeconds: 30, runningSince: since }, new Date("2026-01-01T00:01:00Z"))).toBe(90);
    expect(wallUsedSeconds({ wallUsedSeconds: 30, runningSince: null }, new Date("2026-01-01T00:01:00Z"))).toBe(30);
  });

  it("books a trial's own limit, then what is left before the final reserve, then nothing", () => {
    const s = spec();
    expect(finalReserveSeconds(s)).toBe(30);
    expect(nextReservation(s, 0)).toBe(120);
    expect(nextReservation(s, 600 - 30 - 100)).toBe(100);
    expect(nextReservation(s, 600 - 30 - 44)).toBeNull();
  });

  it("keeps back as long as the longest trial took, and books no trial shorter than that", () => {
    const s = spec({ budget: { maxTrials: 20, maxWallMinutes: 2, perTrialMinutes: 0.75, parallelTrials: 1 } });
    expect(finalReserveSeconds(s)).toBe(30);
    expect(finalReserveSeconds(s, 50)).toBe(50);
    // Never more than 30 % of the budget (at least 90 s of it).
    expect(finalReserveSeconds(s, 500)).toBe(90);
    expect(nextReservation(s, 0, null)).toBe(45);
    // 120 s budget, 40 used, 50 kept back: 30 s left, less than the 45 s minimum.
    expect(nextReservation(s, 40, 50)).toBeNull();
    expect(stopReason(s, 1, [{ value: 0.9 }], 40, 50)).toBe("wall_budget");
  });

  it("stops on trials, on time, and after patience trials without a useful gain", () => {
    const s = spec({ patience: 2 });
    expect(stopReason(s, 5, [], 0)).toBe("max_trials");
    expect(stopReason(s, 1, [], 590)).toBe("wall_budget");
    // 0.90 then +0.005 (not useful) and a failure: two without gain.
    expect(trialsWithoutGain(s, [{ value: 0.9 }, { value: 0.905 }, { value: null }])).toBe(2);
    expect(stopReason(s, 3, [{ value: 0.9 }, { value: 0.905 }, { value: null }], 100)).toBe("patience");
    expect(stopReason(s, 2, [{ value: 0.9 }, { value: 0.95 }], 100)).toBeNull();
  });

  it("reads direction: lower is better for rmse", () => {
    const s = spec({ objective: { metric: "rmse", direction: "lower_is_better", minUsefulGain: 1 }, patience: 1 });
    expect(trialsWithoutGain(s, [{ value: 10 }, { value: 8 }])).toBe(0);
    expect(trialsWithoutGain(s, [{ value: 10 }, { value: 9.5 }])).toBe(1);
  });
});

describe("proposal check", () => {
  it("accepts a point of the space", () => {
    expect(spaceViolations(TABULAR_SPACE, { family: "GBM", "GBM.learning_rate": 0.05, "GBM.num_leaves": 31, "GBM.min_data_in_leaf": 10 })).toEqual([]);
    expect(spaceViolations(TABULAR_SPACE, { family: "RF", "RF.n_estimators": 100, "RF.max_features": 0.5, "RF.min_samples_leaf": 2 })).toEqual([]);
  });

  it("lists every reason at once", () => {
    const reasons = spaceViolations(TABULAR_SPACE, { family: "GBM", "GBM.learning_rate": 5, "GBM.num_leaves": 31.5, "CAT.depth": 6, bogus: 1 });
    expect(reasons).toEqual([
      "bogus is not a parameter of this search's space.",
      "GBM.learning_rate must be between 0.01 and 0.3 (got 5).",
      "GBM.num_leaves must be a whole number (got 31.5).",
      "GBM.min_data_in_leaf is missing.",
      'CAT.depth applies only when family is "CAT".',
    ]);
    expect(spaceViolations(TABULAR_SPACE, { family: "NN" })).toEqual(['family must be one of "GBM", "CAT", "RF", "XT" (got "NN").']);
  });
});
