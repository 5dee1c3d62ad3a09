import { describe, expect, it } from "vitest";
import { parseSplit } from "./recommended-actions";

describe("--split", () => {
  it("parses random, group:COLUMN and time:COLUMN and names the forms on anything else", () => {
    expect(parseSplit("random")).toEqual({ strategy: "random" });
    expect(parseSplit("group:island")).toEqual({ strategy: "group", column: "island" });
    expect(parseSplit("time:pickup")).toEqual({ strategy: "time", column: "pickup" });
    expect(() => parseSplit("weekly")).toThrow(/random, group:COLUMN or time:COLUMN/);
  });
});
