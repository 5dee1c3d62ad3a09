import { describe, expect, it } from "vitest";
import { AttemptLimiter } from "./rate-limit";

describe("AttemptLimiter", () => {
  it("counts attempts when they start and refuses the sixth within the window", () => {
    let now = 1_000_000;
    const limiter = new AttemptLimiter({ limit: 5, windowMs: 60_000, maxKeys: 100, now: () => now });
    const waits = Array.from({ length: 6 }, () => limiter.take("1.2.3.4"));
    expect(waits.slice(0, 5)).toEqual([0, 0, 0, 0, 0]);
    expect(waits[5]).toBe(60_000);
    now += 60_001;
    expect(limiter.take("1.2.3.4")).toBe(0);
  });

  it("lets a reset address start again and a refunded attempt not count", () => {
    const limiter = new AttemptLimiter({ limit: 2, windowMs: 60_000, maxKeys: 100 });
    limiter.take("a");
    limiter.take("a");
    expect(limiter.take("a")).toBeGreaterThan(0);
    limiter.reset("a");
    expect(limiter.take("a")).toBe(0);
    limiter.refund("a");
    expect(limiter.take("a")).toBe(0);
    expect(limiter.take("a")).toBe(0);
    expect(limiter.take("a")).toBeGreaterThan(0);
  });

  it("remembers at most maxKeys addresses, forgetting the least recently seen", () => {
    const limiter = new AttemptLimiter({ limit: 1, windowMs: 60_000, maxKeys: 3 });
    for (const key of ["a", "b", "c"]) limiter.take(key);
    expect(limiter.take("a")).toBeGreaterThan(0); // refused, and now the most recently seen
    limiter.take("d");
    expect(limiter.size).toBe(3);
    expect(limiter.take("b")).toBe(0); // b was the oldest and was forgotten
    expect(limiter.take("a")).toBeGreaterThan(0); // a was kept
    for (let i = 0; i < 10_000; i++) limiter.take(`spray-${i}`);
    expect(limiter.size).toBe(3);
  });
});
