import { describe, expect, it } from "vitest";
import type { MonitorView, MonitorWindow } from "@/contracts/monitoring/monitoring";
import { healthOf } from "@/server/monitoring/health";
import { histogramPoints, monitorSentence, windowPoints } from "./monitor-words";

const window = (seq: number, verdict: MonitorWindow["verdict"], drifted: string[] = [], failureRate = 0): MonitorWindow => ({
  seq,
  openedAt: "2026-12-05T10:00:00.000Z",
  closedAt: verdict ? "2026-12-05T10:05:00.000Z" : null,
  n: 100,
  rows: 100,
  verdict,
  driftedColumns: drifted,
  failureRate,
  errorStreak: 0,
  errors: {},
  p50Ms: 25,
  p95Ms: 50,
  columns: [{ name: "mass", js: 0.31, psi: 0.5, threshold: 0.12, pValue: 0.001, drifted: drifted.includes("mass"), unseenShare: 0, missingShare: 0 }],
  histograms: { mass: [1, 2, 3] },
});

const monitor = (over: Partial<MonitorView>): MonitorView => {
  const m: Omit<MonitorView, "health"> = {
  id: "m1",
  deploymentId: "d1",
  deploymentName: "api",
  release: { id: "r1", number: 1, version: 1 },
  state: "watching",
  reason: null,
  windowRequests: 100,
  windowMinutes: null,
  minRows: 50,
  alertAfter: 2,
  referenceWindow: null,
  alertCooldownMinutes: 60,
  alerts: [],
  alertingColumns: [],
  policy: null,
  windows: [],
  createdAt: "2026-12-05T10:00:00.000Z",
  ...over,
  };
  return { ...m, health: healthOf(m) };
};

describe("a monitor in words", () => {
  it("says the state first: waiting for a first window, healthy, drifting (inputs, not the model), too little traffic", () => {
    expect(monitorSentence(monitor({}))).toMatch(/first verdict comes after 100 requests/);
    const ok = monitor({ windows: [window(1, "ok", [], 0.02)] });
    expect(ok.health).toBe("healthy");
    expect(monitorSentence(ok)).toBe("No alert: the inputs of the last window (100 requests) look like the training data; 2.0% of its requests failed.");
    const drifting = monitor({ alertingColumns: ["mass", "island"], windows: [window(1, "drift", ["mass", "island"]), window(2, "drift", ["mass", "island"])] });
    expect(drifting.health).toBe("drifting");
    expect(monitorSentence(drifting)).toMatch(/^Inputs changed: mass and island drifted in each of the last 2 windows\. .*not that the model got worse/);
    expect(monitor({ windows: [window(1, "ok"), window(2, "not_enough_traffic"), window(3, null)] }).health).toBe("not_enough_traffic");
    const limits = { rollbackTo: 1, maxFailureRate: 0.05, maxP95Ms: null, minRequests: 20, failureLimit: 1, inconclusiveLimit: 3, consecutiveErrors: 4, cooldownMinutes: 30, maxActionsPerDay: 3 };
    const breaching = monitor({ policy: { state: "armed", reason: null, limits }, windows: [window(1, "ok", [], 0.5)] });
    expect(breaching.health).toBe("breaching");
    expect(monitorSentence(breaching)).toMatch(/broke the health policy's limits/);
    expect(monitorSentence(monitor({ windows: [window(1, "drift", ["mass"])] }))).toBe(
      "No alert yet: in the last window (100 requests) mass differed from the training data; an alert needs 2 such windows in a row.",
    );
    expect(monitorSentence(monitor({ state: "failed", reason: "the split is gone" }))).toBe("Its reference could not be made: the split is gone");
  });

  it("turns windows into chart points and bins into shares with readable labels", () => {
    expect(windowPoints([window(1, "drift", ["mass"], 0.25)], "mass")).toEqual([{ window: 1, requests: 100, failurePct: 25, p50Ms: 25, p95Ms: 50, distance: 0.31, threshold: 0.12 }]);
    expect(windowPoints([window(1, "ok")], null)[0]).toMatchObject({ distance: null, threshold: null });
    expect(histogramPoints({ name: "mass", kind: "numeric", edges: [10, 20], counts: [1, 1, 2, 0] }, [0, 0, 2, 2])).toEqual([
      { bin: "≤ 10", reference: 25, window: 0 },
      { bin: "10–20", reference: 25, window: 0 },
      { bin: "> 20", reference: 50, window: 50 },
      { bin: "missing", reference: 0, window: 50 },
    ]);
    expect(histogramPoints({ name: "island", kind: "categorical", categories: ["Biscoe"], counts: [3, 1, 0] }, undefined).map((p) => p.bin)).toEqual(["Biscoe", "other", "missing"]);
  });
});
