import { describe, expect, it } from "vitest";
import { safeNextPath } from "./next-path";

describe("safeNextPath", () => {
  it.each(["/", "/projects", "/projects/abc?tab=data#top", "/settings?x=%2F", "/a//b"])("keeps the path %j of this origin", (next) => {
    expect(safeNextPath(next)).toBe(next);
  });

  it.each([
    "//evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "https://evil.example",
    "javascript:alert(1)",
    "/%5Cevil",
    "/%5cevil",
    "/%2F%2Fevil.example",
    "%2F%2Fevil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "/%09/evil.example",
    "/%E0%A4%A",
    "evil.example",
    "",
  ])("refuses %j and falls back to /", (next) => {
    expect(safeNextPath(next)).toBe("/");
  });

  it("refuses what is not a single string", () => {
    expect(safeNextPath(undefined)).toBe("/");
    expect(safeNextPath(["/a", "/b"])).toBe("/");
    expect(safeNextPath("/" + "a".repeat(3000))).toBe("/");
  });
});
