import { describe, expect, it } from "vitest";
import { filterLog, formatDuration, formatMetric, progressPercent, totalUsage } from "./format";

describe("experiment format helpers", () => {
  it("formats durations for people", () => {
    expect(formatDuration(5)).toBe("5 s");
    expect(formatDuration(125)).toBe("2 min 5 s");
    expect(formatDuration(3 * 3600 + 60)).toBe("3 h 1 min");
    expect(formatDuration(null)).toBe("—");
  });

  it("keeps progress below 100 until the experiment succeeded", () => {
    expect(progressPercent(9, 9, "running")).toBe(99);
    expect(progressPercent(9, 9, "succeeded")).toBe(100);
    expect(progressPercent(3, 9, "running")).toBe(33);
    expect(progressPercent(0, 0, "running")).toBe(0);
  });

  it("sums time but takes the largest memory peak", () => {
    expect(totalUsage([{ wallSeconds: 2, cpuSeconds: 1, peakRssBytes: 100 }, null, { wallSeconds: 3, cpuSeconds: 4, peakRssBytes: 50 }])).toEqual({
      wallSeconds: 5,
      cpuSeconds: 5,
      peakRssBytes: 100,
    });
  });

  it("formats metrics and filters logs", () => {
    expect(formatMetric(0.98551)).toBe("0.9855");
    expect(formatMetric(null)).toBe("—");
    expect(filterLog("a fit\nb score\nc FIT", "fit")).toEqual(["a fit", "c FIT"]);
    expect(filterLog("1\n2\n3", "", 2)).toEqual(["2", "3"]);
  });
});
