import { describe, expect, it } from "vitest";
import { parseDuration } from "./duration";

describe("parseDuration", () => {
  it("reads hours, days and weeks", () => {
    expect(parseDuration("12h")).toBe(12 * 3_600_000);
    expect(parseDuration("30d")).toBe(30 * 86_400_000);
    expect(parseDuration("2w")).toBe(14 * 86_400_000);
  });

  it.each(["", "30", "d", "0d", "-1d", "1.5d", "30m", "30 days", "3651d", "1y"])("refuses %j with the accepted forms named", (text) => {
    expect(() => parseDuration(text)).toThrow(/whole number and h \(hours\), d \(days\) or w \(weeks\)/);
  });
});
