import { describe, expect, it } from "vitest";
import { applyRecommendedActions, parseSplit } from "./recommended-actions";

const issues = [
  { code: "leakage_suspect", columns: ["total"], severity: "high", recommendedAction: { kind: "exclude_columns", columns: ["total"] } },
  { code: "id_like_column", columns: ["trip_id"], severity: "warning", recommendedAction: { kind: "exclude_columns", columns: ["trip_id"] } },
  { code: "time_column", columns: ["pickup"], severity: "warning", recommendedAction: { kind: "time_split", column: "pickup" } },
  { code: "duplicate_rows", columns: [], severity: "info", recommendedAction: { kind: "drop_rows" } },
];

describe("recommended actions", () => {
  it("leaves out flagged columns and takes the recommended split", () => {
    const r = applyRecommendedActions(issues, "fare");
    expect(r.excludeColumns).toEqual(["total", "trip_id"]);
    expect(r.split).toEqual({ strategy: "time", column: "pickup" });
    expect(r.appliedActions).toEqual(["left out total: leakage_suspect", "left out trip_id: id_like_column", "split: time on pickup (time_column)"]);
  });

  it("keeps a column named with --keep and lets --split win", () => {
    const r = applyRecommendedActions(issues, "fare", { keep: ["total"], split: { strategy: "random" } });
    expect(r.excludeColumns).toEqual(["trip_id"]);
    expect(r.split).toEqual({ strategy: "random" });
    expect(r.appliedActions).toContain("kept total despite leakage_suspect (--keep)");
  });

  it("never leaves out the target", () => {
    expect(applyRecommendedActions(issues, "total").excludeColumns).toEqual(["trip_id"]);
  });

  it("parses --split", () => {
    expect(parseSplit("group:island")).toEqual({ strategy: "group", column: "island" });
    expect(() => parseSplit("weekly")).toThrow(/random, group:COLUMN or time:COLUMN/);
  });
});
