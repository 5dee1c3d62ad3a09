import { describe, expect, it } from "vitest";
import { MAX_ATTEMPTS, retryDelayMs } from "./backoff";

describe("the retry schedule", () => {
  it("waits 30 s, 2 min, 10 min, 1 h and 6 h after the first five failures from the default base", () => {
    const base = 30_000;
    expect([1, 2, 3, 4, 5].map((n) => retryDelayMs(n, base))).toEqual([30_000, 120_000, 600_000, 3_600_000, 21_600_000]);
  });

  it("gives up after the sixth attempt", () => {
    expect(MAX_ATTEMPTS).toBe(6);
    expect(retryDelayMs(6, 30_000)).toBeNull();
    expect(retryDelayMs(7, 30_000)).toBeNull();
  });

  it("scales every step from a shortened base", () => {
    expect([1, 2, 5].map((n) => retryDelayMs(n, 300))).toEqual([300, 1200, 216_000]);
  });
});
