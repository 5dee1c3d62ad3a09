import { describe, expect, it } from "vitest";
import { unsafeRelativePath } from "./manifest";

describe("manifest path checks", () => {
  it.each(["a.txt", "sub/dir/model.bin", "weird name.csv"])("accepts %s", (p) => {
    expect(unsafeRelativePath(p)).toBeNull();
  });
  it.each(["/etc/passwd", "../x", "a/../../b", "a//b", "./a", "a\\b", "a/"])("refuses %s", (p) => {
    expect(unsafeRelativePath(p)).not.toBeNull();
  });
});
