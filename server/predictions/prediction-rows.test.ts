import { describe, expect, it } from "vitest";
import { toPredictionRows } from "./prediction-rows";

describe("prediction rows from predictions.parquet records", () => {
  it("orders rows by row id, with one probability per class", () => {
    const { rows, classes } = toPredictionRows([
      { row_id: 1n, prediction: "Gentoo", "proba::Adelie": 0.1, "proba::Gentoo": 0.9 },
      { row_id: 0n, prediction: "Adelie", "proba::Adelie": 0.8, "proba::Gentoo": 0.2 },
    ]);
    expect(classes).toEqual(["Adelie", "Gentoo"]);
    expect(rows).toEqual([
      { rowId: 0, prediction: "Adelie", probabilities: { Adelie: 0.8, Gentoo: 0.2 } },
      { rowId: 1, prediction: "Gentoo", probabilities: { Adelie: 0.1, Gentoo: 0.9 } },
    ]);
  });

  it("has no classes for regression and turns a 64-bit integer prediction into a number", () => {
    expect(toPredictionRows([{ row_id: 0, prediction: 4.2 }])).toEqual({ rows: [{ rowId: 0, prediction: 4.2, probabilities: {} }], classes: [] });
    expect(toPredictionRows([{ row_id: 0n, prediction: 3n }]).rows[0]!.prediction).toBe(3);
  });
});
