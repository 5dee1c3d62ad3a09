import { describe, expect, it } from "vitest";
import type { FeatureSchemaEntry } from "@/contracts/recipes/tabular";
import { isDomainError } from "@/server/errors";
import { checkRows } from "./predict-rows";

const feature = (name: string, kind: FeatureSchemaEntry["kind"], nullable = false): FeatureSchemaEntry => ({ name, dtype: "x", kind, nullable, usedByModel: true, example: null });
const FEATURES = [feature("bill_length_mm", "numeric", true), feature("island", "categorical"), feature("measured", "datetime", true)];

function problems(body: unknown) {
  try {
    checkRows(body, FEATURES, { maxRows: 3 });
  } catch (err) {
    if (isDomainError(err)) return { reason: err.reason, fields: err.details?.fields ?? null };
    throw err;
  }
  return null;
}

describe("predict rows against a feature schema", () => {
  it("accepts rows that match, with nullable columns left out", () => {
    expect(checkRows({ rows: [{ bill_length_mm: 39.1, island: "Biscoe" }, { island: "Dream", measured: "2026-01-02" }] }, FEATURES, { maxRows: 3 })).toHaveLength(2);
  });

  it("forwards every feature of a row, null where a nullable one was left out (the serving process wants full rows)", () => {
    expect(checkRows({ rows: [{ island: "Dream" }] }, FEATURES, { maxRows: 3 })).toEqual([{ bill_length_mm: null, island: "Dream", measured: null }]);
  });

  it("names every wrong field by row and column", () => {
    expect(problems({ rows: [{ bill_length_mm: "long", island: "Biscoe" }, { bill_length_mm: 1, wings: 2 }] })).toEqual({
      reason: "bad_input",
      fields: [
        { path: "rows[0].bill_length_mm", message: 'a number is expected (got "long")' },
        { path: "rows[1].wings", message: "not a feature of this model" },
        { path: "rows[1].island", message: "required: the training data had no missing values here" },
      ],
    });
  });

  it("refuses a body that is not rows, and more rows than the cap", () => {
    expect(problems({ row: {} })).toEqual({ reason: "bad_input", fields: null });
    expect(problems({ rows: [] })).toEqual({ reason: "bad_input", fields: null });
    expect(problems({ rows: [1] })).toMatchObject({ fields: [{ path: "rows[0]" }] });
    expect(problems({ rows: Array.from({ length: 4 }, () => ({ island: "x" })) })).toEqual({ reason: "too_many_rows", fields: null });
  });
});
