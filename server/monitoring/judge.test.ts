import { describe, expect, it } from "vitest";
import type { MonitorWindow } from "@/contracts/monitoring/monitoring";
import { ZReference } from "@/contracts/recipes/data";
import { verdictOf } from "./judge";
import { alertingColumns } from "./monitor-views";

const reference = ZReference.parse({
  version: 1,
  partition: "train",
  rows: 400,
  columns: [
    { name: "a", kind: "numeric", edges: [1, 2, 3], counts: [100, 100, 100, 100, 0] },
    { name: "b", kind: "categorical", categories: ["x", "y"], counts: [200, 200, 0, 0] },
  ],
});

describe("a closed window's verdict", () => {
  it("too few rows: not enough traffic, whatever the bins", () => {
    expect(verdictOf(reference, { rows: 20, seq: 1, histograms: { a: [20, 0, 0, 0, 0], b: [0, 0, 20, 0] } }, 50)).toEqual({ verdict: "not_enough_traffic", columns: [] });
  });

  it("the reference's own shape: ok; a column moved to one bin: drift on that column only, with its unseen share", () => {
    const same = verdictOf(reference, { rows: 200, seq: 1, histograms: { a: [50, 50, 50, 50, 0], b: [100, 100, 0, 0] } }, 50);
    expect(same.verdict).toBe("ok");
    expect(same.columns.map((c) => c.drifted)).toEqual([false, false]);
    const moved = verdictOf(reference, { rows: 200, seq: 2, histograms: { a: [50, 50, 50, 50, 0], b: [60, 60, 80, 0] } }, 50);
    expect(moved.verdict).toBe("drift");
    expect(moved.columns.filter((c) => c.drifted).map((c) => c.name)).toEqual(["b"]);
    expect(moved.columns[1]).toMatchObject({ unseenShare: 0.4, missingShare: 0 });
    expect(moved.columns[1]!.js).toBeGreaterThan(moved.columns[1]!.threshold);
  });

  it("is the same verdict when computed twice (seeded by the window)", () => {
    const w = { rows: 100, seq: 7, histograms: { a: [30, 20, 25, 25, 0], b: [55, 45, 0, 0] } };
    expect(verdictOf(reference, w, 50)).toEqual(verdictOf(reference, w, 50));
  });
});

const win = (verdict: MonitorWindow["verdict"], driftedColumns: string[]) => ({ verdict, driftedColumns }) as Pick<MonitorWindow, "verdict" | "driftedColumns">;

describe("which columns alert", () => {
  it("a column alerts once it drifted in each of the last k judged windows; not-enough-traffic windows neither count nor break a run", () => {
    const ws = [win("drift", ["a"]), win("not_enough_traffic", []), win("drift", ["a", "b"])] as MonitorWindow[];
    expect(alertingColumns(ws, 2)).toEqual(["a"]);
    expect(alertingColumns(ws, 3)).toEqual([]);
    expect(alertingColumns([...ws, win("ok", [])] as MonitorWindow[], 2)).toEqual([]);
    expect(alertingColumns([win(null, [])] as MonitorWindow[], 1)).toEqual([]);
  });
});
