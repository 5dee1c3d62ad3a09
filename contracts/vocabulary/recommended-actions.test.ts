import { describe, expect, it } from "vitest";
import { actionLabel, applyRecommendedActions, issueKey, type RecommendableIssue } from "./recommended-actions";

const leak: RecommendableIssue = { code: "leakage_suspect", columns: ["total"], recommendedAction: { kind: "exclude_columns", columns: ["total"] } };
const id: RecommendableIssue = { code: "id_like_column", columns: ["trip_id"], recommendedAction: { kind: "exclude_columns", columns: ["trip_id"] } };
const time: RecommendableIssue = { code: "time_column", columns: ["date"], recommendedAction: { kind: "time_split", column: "date" } };
const group: RecommendableIssue = { code: "group_column", columns: ["store"], recommendedAction: { kind: "group_split", column: "store" } };
const drop: RecommendableIssue = { code: "missing_target", columns: ["y"], recommendedAction: { kind: "drop_rows" } };

describe("applyRecommendedActions", () => {
  it("applies every recommended action when nothing was decided", () => {
    const a = applyRecommendedActions([leak, id, time, drop], "y");
    expect(a.excludeColumns).toEqual(["total", "trip_id"]);
    expect(a.split).toEqual({ strategy: "time", column: "date" });
    expect(a.appliedActions).toEqual(["left out total: leakage_suspect", "left out trip_id: id_like_column", "split: time on date (time_column)"]);
  });

  it("keeps a column and the random split when the wizard's checkboxes are switched off", () => {
    const a = applyRecommendedActions([leak, time], "y", { decided: { [issueKey(leak)]: false, [issueKey(time)]: false } });
    expect(a.excludeColumns).toEqual([]);
    expect(a.split).toEqual({ strategy: "random" });
    expect(a.appliedActions).toEqual(["kept total despite leakage_suspect", "random split instead of time on date (time_column)"]);
  });

  it("keeps a column named with --keep and lets a chosen split win, recording both", () => {
    const a = applyRecommendedActions([leak, id, time], "y", { keep: ["total"], split: { strategy: "random" } });
    expect(a.excludeColumns).toEqual(["trip_id"]);
    expect(a.split).toEqual({ strategy: "random" });
    expect(a.appliedActions).toEqual(["split: random (chosen)", "kept total despite leakage_suspect", "left out trip_id: id_like_column"]);
  });

  it("takes the first recommended split only and never leaves out or splits on the target", () => {
    const self: RecommendableIssue = { code: "id_like_column", columns: ["y"], recommendedAction: { kind: "exclude_columns", columns: ["y", "id"] } };
    const onTarget: RecommendableIssue = { code: "time_column", columns: ["y"], recommendedAction: { kind: "time_split", column: "y" } };
    const a = applyRecommendedActions([onTarget, group, time, self], "y");
    expect(a.split).toEqual({ strategy: "group", column: "store" });
    expect(a.excludeColumns).toEqual(["id"]);
  });

  it("treats drop_rows as informational", () => {
    expect(applyRecommendedActions([drop], "y")).toEqual({ excludeColumns: [], split: { strategy: "random" }, appliedActions: [] });
    expect(actionLabel(drop, "y")).toMatch(/left out by the split/);
  });
});

describe("actionLabel", () => {
  it("says what each action would do, without the target", () => {
    const withTarget: RecommendableIssue = { code: "id_like_column", columns: ["y", "id"], recommendedAction: { kind: "exclude_columns", columns: ["y", "id"] } };
    expect(actionLabel(withTarget, "y")).toBe("Leave out id");
    expect(actionLabel(time, "y")).toBe("Split by time on date (test on the latest rows)");
    expect(actionLabel(group, "y")).toBe("Keep each store group in one partition");
    expect(actionLabel({ code: "missing_values", columns: ["a"], recommendedAction: { kind: "none" } }, "y")).toBe("No action needed");
    expect(actionLabel({ code: "too_few_rows", columns: [], severity: "high", recommendedAction: { kind: "none" } }, "y")).toMatch(/^No choice here fixes this: it needs other data/);
  });
});
