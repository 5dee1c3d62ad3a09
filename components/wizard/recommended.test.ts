import { describe, expect, it } from "vitest";
import { actionLabel, applyDecisions, issueKey, type DataIssue } from "./recommended";

const leak: DataIssue = { code: "leakage_suspect", columns: ["total"], severity: "high", recommendedAction: { kind: "exclude_columns", columns: ["total"] } };
const time: DataIssue = { code: "time_column", columns: ["date"], severity: "warning", recommendedAction: { kind: "time_split", column: "date" } };
const group: DataIssue = { code: "group_column", columns: ["store"], severity: "warning", recommendedAction: { kind: "group_split", column: "store" } };
const drop: DataIssue = { code: "missing_target", columns: ["y"], severity: "high", recommendedAction: { kind: "drop_rows" } };

describe("applyDecisions", () => {
  it("applies every recommended action by default, like the CLI", () => {
    const a = applyDecisions([leak, time, drop], "y", {});
    expect(a.excludeColumns).toEqual(["total"]);
    expect(a.split).toEqual({ strategy: "time", column: "date" });
    expect(a.appliedActions).toEqual(["left out total: leakage_suspect", "split: time on date (time_column)"]);
  });

  it("keeps a column and the random split when the user switches the actions off", () => {
    const a = applyDecisions([leak, time], "y", { [issueKey(leak)]: false, [issueKey(time)]: false });
    expect(a.excludeColumns).toEqual([]);
    expect(a.split).toEqual({ strategy: "random" });
    expect(a.appliedActions[0]).toContain("kept total");
  });

  it("takes the first split only and never leaves out the target", () => {
    const self: DataIssue = { code: "id_like_column", columns: ["y"], severity: "warning", recommendedAction: { kind: "exclude_columns", columns: ["y", "id"] } };
    const a = applyDecisions([group, time, self], "y", {});
    expect(a.split).toEqual({ strategy: "group", column: "store" });
    expect(a.excludeColumns).toEqual(["id"]);
  });

  it("treats drop_rows as informational", () => {
    expect(applyDecisions([drop], "y", {})).toEqual({ excludeColumns: [], split: { strategy: "random" }, appliedActions: [] });
    expect(actionLabel(drop, "y")).toMatch(/left out by the split/);
  });
});
