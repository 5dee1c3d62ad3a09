import { describe, expect, it } from "vitest";
import { isDomainError } from "@/server/errors";
import { refuseValuesToAgents, verdictOf } from "./verdict";
import type { HoldoutCompareResult } from "./holdouts.schema";

const result = (direction: "higher_is_better" | "lower_is_better", low: number, high: number): HoldoutCompareResult => ({
  holdout: { id: "h1", name: "newest" },
  metric: direction === "higher_is_better" ? "accuracy" : "rmse",
  direction,
  unit: "rows",
  rows: 80,
  excluded: { total: 3, byVersion: { "1": 3, "2": 0 } },
  results: [
    { version: 1, value: 0.5 },
    { version: 2, value: 0.5 + (low + high) / 2 },
  ],
  difference: { estimate: (low + high) / 2, low, high, confidence: 0.95, of: [1, 2] },
});

describe("the holdout verdict agents get", () => {
  it("favours the second version only when the interval excludes a loss, in the metric's direction", () => {
    expect(verdictOf(result("higher_is_better", 0.01, 0.05)).verdict).toBe("second_better");
    expect(verdictOf(result("higher_is_better", -0.05, -0.01)).verdict).toBe("first_better");
    expect(verdictOf(result("higher_is_better", -0.01, 0.05)).verdict).toBe("no_clear_difference");
    // Lower is better (an error): a negative difference is the second version's gain.
    expect(verdictOf(result("lower_is_better", -0.5, -0.1)).verdict).toBe("second_better");
    expect(verdictOf(result("lower_is_better", 0.1, 0.5)).verdict).toBe("first_better");
  });

  it("carries no value, only counts and words", () => {
    const v = verdictOf(result("higher_is_better", 0.0123, 0.0456));
    expect(v).toEqual({ holdout: { id: "h1", name: "newest" }, metric: "accuracy", versions: [1, 2], rows: 80, rowsLeftOut: 3, verdict: "second_better", words: expect.any(String) });
    expect(JSON.stringify(v)).not.toMatch(/0\.0123|0\.0456|0\.5/);
  });

  it("refuses the values to a call through the agent tools, whatever the token", () => {
    let refused: unknown;
    try {
      refuseValuesToAgents({ viaAgentTools: true });
    } catch (err) {
      refused = err;
    }
    expect(isDomainError(refused) && refused.code === "FORBIDDEN" && refused.details?.code).toBe("holdout_values_for_agents");
    expect(() => refuseValuesToAgents({ viaAgentTools: false })).not.toThrow();
  });
});
