import { describe, expect, it } from "vitest";
import { overLimits } from "./judge";

const MIB = 1024 * 1024;
const timed = (p95Ms: number) => ({ version: 1 as const, rows: 20, medianMs: p95Ms / 2, p95Ms });

describe("a policy's limits beside quality", () => {
  it("let through a candidate within every limit, and any candidate when none is set", () => {
    expect(overLimits({ exportBytes: 2 * MIB, latency: timed(12) }, { maxExportMib: 2, maxLatencyMs: 12 })).toBeNull();
    expect(overLimits({ exportBytes: 900 * MIB, latency: null }, { maxExportMib: null, maxLatencyMs: null })).toBeNull();
  });

  it("refuse a larger export or a slower p95, saying by how much", () => {
    expect(overLimits({ exportBytes: 3 * MIB, latency: timed(1) }, { maxExportMib: 2, maxLatencyMs: null })).toBe("Its export is 3.00 MiB, over the policy's limit of 2 MiB (however good it is).");
    expect(overLimits({ exportBytes: MIB, latency: timed(40.5) }, { maxExportMib: 2, maxLatencyMs: 40 })).toBe(
      "Its single-row predictions take 40.5 ms at the 95th percentile (20 timed when it was tested), over the policy's limit of 40 ms (however good it is).",
    );
  });

  it("refuse a version with no measured latency when latency is limited: a limit is not passed by not measuring", () => {
    expect(overLimits({ exportBytes: MIB, latency: null }, { maxExportMib: null, maxLatencyMs: 1000 })).toMatch(/has no measured latency .* retrain it to measure it\.$/);
  });
});
