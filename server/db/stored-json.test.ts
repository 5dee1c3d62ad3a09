import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { parseStoredJson } from "./stored-json";

const Z = z.object({ score: z.number() }).strict();

describe("parseStoredJson", () => {
  afterEach(() => vi.restoreAllMocks());

  it("returns the parsed value when the column matches its schema", () => {
    expect(parseStoredJson(Z, '{"score":0.96}')).toEqual({ score: 0.96 });
    expect(parseStoredJson(Z, null)).toBeNull();
  });

  it("shows a drifted or broken value as missing and says so in the log once", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(parseStoredJson(Z, '{"score":"high"}')).toBeNull();
    expect(parseStoredJson(Z, '{"score":"high"}')).toBeNull();
    expect(parseStoredJson(Z, "{not json")).toBeNull();
    expect(warn).toHaveBeenCalledTimes(2);
    expect(String(warn.mock.calls[0]![0])).toMatch(/score: .*number/i);
    expect(String(warn.mock.calls[1]![0])).toMatch(/not JSON/);
  });
});
