import { describe, expect, it } from "vitest";
import { bucketStart, countRequest, EMPTY_TALLY, figuresOf, lastHourFigures, lastHourFrom, percentileMs, retainedFrom, type Tally } from "./stats-window";

const at = (iso: string) => new Date(`2026-12-01T${iso}Z`);

describe("latency percentiles from a histogram", () => {
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

describe("minute buckets and the last hour", () => {
  it("count a request in the minute it arrived, its latency under its bucket bound and its refusal under its class", () => {
    expect(bucketStart(at("12:30:59.999"))).toEqual(at("12:30:00"));
    const t = countRequest(countRequest(EMPTY_TALLY, 7), 300, "bad_input");
    expect(t).toEqual({ requests: 2, errors: { bad_input: 1 }, latencyMs: { "10": 1, "500": 1 } });
    expect(countRequest(EMPTY_TALLY, 61_000).latencyMs).toEqual({ inf: 1 });
  });

  it("make the last hour the current minute and the 59 before it, and keep two hours", () => {
    expect(lastHourFrom(at("12:30:20"))).toEqual(at("11:31:00"));
    expect(retainedFrom(at("12:30:20"))).toEqual(at("10:30:00"));
  });

  it("give the last hour's own requests, errors and percentiles, leaving out older minutes", () => {
    const minute = (iso: string, t: Tally) => ({ ...t, start: at(iso) });
    const minutes = [
      // 61 minutes ago: outside the window, and slow.
      minute("11:29:00", { requests: 50, errors: { internal: 50 }, latencyMs: { "5000": 50 } }),
      minute("11:31:00", { requests: 9, errors: {}, latencyMs: { "25": 9 } }),
      minute("12:30:00", { requests: 1, errors: { not_ready: 1 }, latencyMs: { "250": 1 } }),
    ];
    expect(lastHourFigures(minutes, at("12:30:20"))).toEqual({ requests: 10, errors: 1, p50Ms: 25, p95Ms: 250 });
    // A minute later the 11:31 minute has left the window.
    expect(lastHourFigures(minutes, at("12:31:05"))).toEqual({ requests: 1, errors: 1, p50Ms: 250, p95Ms: 250 });
    expect(lastHourFigures(minutes, at("14:00:00"))).toEqual({ requests: 0, errors: 0, p50Ms: null, p95Ms: null });
    expect(figuresOf(minutes)).toEqual({ requests: 60, errors: 51, p50Ms: 5000, p95Ms: 5000 });
  });
});
