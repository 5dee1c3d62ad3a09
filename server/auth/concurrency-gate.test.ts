import { describe, expect, it } from "vitest";
import { ConcurrencyGate, GateFull } from "./concurrency-gate";

describe("ConcurrencyGate", () => {
  it("runs at most maxActive tasks at once and refuses beyond the waiting room", async () => {
    const gate = new ConcurrencyGate(2, 3);
    let running = 0;
    let peak = 0;
    const releases: (() => void)[] = [];
    const task = () =>
      new Promise<string>((resolve) => {
        running++;
        peak = Math.max(peak, running);
        releases.push(() => {
          running--;
          resolve("done");
        });
      });
    const results = Array.from({ length: 6 }, () => gate.run(task).catch((e: unknown) => e));
    // 2 run, 3 wait, the 6th is refused at once.
    await expect(results[5]).resolves.toBeInstanceOf(GateFull);
    expect(gate.running).toBe(2);
    while (releases.length || running) {
      await new Promise((r) => setImmediate(r));
      releases.shift()?.();
    }
    expect(await Promise.all(results.slice(0, 5))).toEqual(["done", "done", "done", "done", "done"]);
    expect(peak).toBe(2);
    expect(gate.running).toBe(0);
  });
});
