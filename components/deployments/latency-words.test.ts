import { describe, expect, it } from "vitest";
import { latencyWords } from "./latency-words";

const at = new Date("2026-12-01T12:00:00Z");
const lastHour = { requests: 4, errors: 1, p50Ms: 10, p95Ms: 250 };
const summary = { releaseId: "r1", requests: 12, errors: 2, p50Ms: 25, p95Ms: 2500, lastAt: at, lastHour, quietLastHour: false };

describe("a deployment's requests and latency in words", () => {
  it("gives the last hour's count, refusals and percentiles, then the release's total", () => {
    expect(latencyWords(summary, 3)).toMatch(/^Last hour: 4 requests, 1 refused or failed: p50 ≤ 10 ms, p95 ≤ 250 ms\. In all, 12 requests since release 3, 2 refused or failed: p50 ≤ 25 ms, p95 ≤ 2.5 s; last one at /);
  });

  it("says the last hour had none when it had none", () => {
    expect(latencyWords({ ...summary, lastHour: { requests: 0, errors: 0, p50Ms: null, p95Ms: null }, quietLastHour: true }, 3)).toMatch(/^No requests in the last hour \(12 requests since release 3/);
  });

  it("says there were none before the first request, and names a percentile past the last bucket", () => {
    expect(latencyWords(undefined, 1)).toBe("No requests yet.");
    const one = { requests: 1, errors: 0, p50Ms: 25, p95Ms: null };
    expect(latencyWords({ ...summary, ...one, lastHour: one }, 1)).toMatch(/^Last hour: 1 request: p50 ≤ 25 ms, p95 over 60 s\. In all, 1 request since release 1: p50 ≤ 25 ms, p95 over 60 s;/);
  });
});
