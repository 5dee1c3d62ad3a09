import { describe, expect, it } from "vitest";
import { percentileMs } from "./deployment-latency";

describe("latency percentiles from the release's histogram", () => {
  it("name the upper bound of the bucket the percentile falls in", () => {
    // 10 requests: 6 under 25 ms, 3 under 100 ms, 1 under 1 s.
    const h = { "25": 6, "100": 3, "1000": 1 };
    expect(percentileMs(h, 0.5)).toBe(25);
    expect(percentileMs(h, 0.95)).toBe(1000);
    expect(percentileMs(h, 0.9)).toBe(100);
  });

  it("say nothing for no requests, and no bound for requests slower than the last bucket", () => {
    expect(percentileMs({}, 0.5)).toBeNull();
    expect(percentileMs({ "5": 1, inf: 9 }, 0.5)).toBeNull();
    expect(percentileMs({ "5": 1, inf: 9 }, 0.1)).toBe(5);
  });
});
