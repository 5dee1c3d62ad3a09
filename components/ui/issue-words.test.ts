import { describe, expect, it } from "vitest";
import { issueWords } from "./issue-words";

describe("issue codes in plain words", () => {
  it("says what an ID-like or leaking column means", () => {
    expect(issueWords("id_like_column")).toBe("looks like an ID");
    expect(issueWords("leakage_suspect")).toBe("may contain the answer");
  });
  it("falls back to the code with spaces for a code it does not know", () => {
    expect(issueWords("brand_new_check")).toBe("brand new check");
  });
});
