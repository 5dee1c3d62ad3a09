import { describe, expect, it } from "vitest";
import { latencyWords } from "./latency-words";

const at = new Date("2026-12-01T12:00:00Z");
const summary = { releaseId: "r1", requests: 12, errors: 2, p50Ms: 25, p95Ms: 2500, lastAt: at, quietLastHour: false };

describe("a deployment's requests and latency in words", () => {
  it("gives the count, refusals and both percentiles as bucket bounds", () => {
    expect(latencyWords(summary, 3)).toMatch(/^12 requests since release 3, 2 refused or failed: p50 ≤ 25 ms, p95 ≤ 2.5 s; last one at /);
  });

  it("says the last hour had none when the last request is older than an hour", () => {
    expect(latencyWords({ ...summary, quietLastHour: true }, 3)).toMatch(/^No requests in the last hour \(12 requests/);
  });

  it("says there were none before the first request, and names a percentile past the last bucket", () => {
    expect(latencyWords(undefined, 1)).toBe("No requests yet.");
    expect(latencyWords({ ...summary, errors: 0, requests: 1, p95Ms: null }, 1)).toMatch(/^1 request since release 1: p50 ≤ 25 ms, p95 over 60 s;/);
  });
});
