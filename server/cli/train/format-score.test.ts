import { describe, expect, it } from "vitest";
import { formatComparison, formatScore } from "./format-score";

describe("scores for people", () => {
  it("shows accuracies as percentages with one decimal", () => {
    expect(formatScore("accuracy", 0.9612345)).toBe("96.1 %");
    expect(formatScore("balanced_accuracy", 1)).toBe("100.0 %");
  });

  it("shows bounded scores with three decimals", () => {
    expect(formatScore("roc_auc", 0.9612345)).toBe("0.961");
    expect(formatScore("r2", -0.25)).toBe("-0.250");
  });

  it("shows errors with three significant digits in the target's unit", () => {
    expect(formatScore("rmse", 1234.5678)).toBe("1,235");
    expect(formatScore("mae", 0.0123456)).toBe("0.0123");
    expect(formatScore("mae", 12.3456)).toBe("12.3");
  });

  it("shows a missing score as a dash", () => {
    expect(formatScore("accuracy", null)).toBe("-");
    expect(formatComparison("accuracy", 0.97, null)).toBe("accuracy 97.0 % (baseline -)");
  });
});
