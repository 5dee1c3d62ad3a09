import { afterEach, describe, expect, it } from "vitest";
import { eventBus } from "@/server/events/bus";
import { defineReconciler } from "./define-reconciler";
import { sweepStats } from "./loop-stats";

const tick = (ms = 5) => new Promise((r) => setTimeout(r, ms));

describe("defineReconciler", () => {
  const stops: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop();
  });

  it("advances a row one at a time: woken while it advances, it advances once more after, never twice at once", async () => {
    let concurrent = 0;
    let most = 0;
    let runs = 0;
    const r = defineReconciler({
      name: "test",
      everyMs: 60_000,
      active: async () => [],
      advance: async () => {
        concurrent++;
        most = Math.max(most, concurrent);
        runs++;
        await tick(20);
        concurrent--;
      },
    });
    stops.push(r.start());
    await Promise.all([r.wake("a"), r.wake("a"), r.wake("a")]);
    await tick(60);
    expect(most).toBe(1);
    // The first run, and one more for the wakes that came while it ran.
    expect(runs).toBe(2);
  });

  it("sweeps the active rows, wakes the row an event names, and reports a failing advance instead of stopping", async () => {
    const seen: string[] = [];
    const lines: string[] = [];
    const r = defineReconciler({
      name: "rows",
      everyMs: 30,
      active: async () => [{ id: "swept" }],
      advance: async (id) => {
        seen.push(id);
        if (id === "bad") throw new Error("no such row\nstack…");
      },
      wakeOn: (e) => (e.event.type === "search.changed" ? e.event.searchId : null),
    });
    stops.push(r.start((l) => lines.push(l)));
    eventBus().publish({ type: "search.changed", searchId: "bad", projectId: "p" });
    eventBus().publish({ type: "search.changed", searchId: "woken", projectId: "p" });
    await tick(100);
    expect(seen).toContain("swept");
    expect(seen).toContain("woken");
    expect(lines).toContain("rows: advancing bad: no such row");
    expect(seen.filter((s) => s === "swept").length).toBeGreaterThan(1);
  });

  it("stops: no sweep or event after, and the stop waits for the advance in progress", async () => {
    let finished = false;
    let calls = 0;
    const r = defineReconciler({
      name: "slow",
      everyMs: 10,
      active: async () => [{ id: "x" }],
      advance: async () => {
        calls++;
        await tick(50);
        finished = true;
      },
    });
    const stop = r.start();
    await tick(5);
    await stop();
    expect(finished).toBe(true);
    const after = calls;
    await tick(50);
    expect(calls).toBe(after);
  });

  it("wakes every row an event names, and counts sweeps, failed ones apart", async () => {
    const seen: string[] = [];
    let failing = true;
    const r = defineReconciler({
      name: "counted",
      everyMs: 20,
      active: async () => [{ id: "a" }],
      advance: async (id) => {
        seen.push(id);
        if (id === "a" && failing) throw new Error("not yet");
      },
      wakeOn: (e) => (e.event.type === "model.changed" ? ["m1", "m2"] : null),
    });
    stops.push(r.start(() => {}));
    eventBus().publish({ type: "model.changed", modelId: "m", projectId: "p" });
    await tick(70);
    expect(seen).toEqual(expect.arrayContaining(["m1", "m2"]));
    const stats = sweepStats("counted");
    expect(stats.failedSweeps).toBeGreaterThan(0);
    expect(stats.lastSuccessAt).toBeNull();
    failing = false;
    await tick(70);
    expect(stats.sweeps).toBeGreaterThan(stats.failedSweeps);
    expect(stats.lastSuccessAt).not.toBeNull();
  });
});
