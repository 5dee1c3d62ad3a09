import { describe, expect, it } from "vitest";
import { previewFromLines } from "./preview";
import { checkPathAgainstRoots } from "./register";

describe("preview", () => {
  it("splits quoted fields and doubled quotes", () => {
    expect(previewFromLines("d1", ["h1,h2,h3,h4", 'a,"b, c","say ""hi""",'], false, null).rows).toEqual([["a", "b, c", 'say "hi"', ""]]);
  });
  it("keeps a quoted line break in its cell, and leaves out the row the peek cut off", () => {
    const p = previewFromLines("d1", ["\ufeffnote,n", '"two', 'lines",1', "plain,2", '"cut'], true, null);
    expect(p).toMatchObject({ header: ["note", "n"], rows: [["two\nlines", "1"], ["plain", "2"]], truncated: true });
  });
  it("uses the profile's delimiter and names headerless columns", () => {
    expect(previewFromLines("d1", ["a;b,c", "1;2,3"], false, { delimiter: ";", header: false })).toMatchObject({
      delimiter: ";",
      header: ["column 1", "column 2"],
      rows: [["a", "b,c"], ["1", "2,3"]],
    });
  });
  it("guesses tab for TSV and shows header + rows", () => {
    const p = previewFromLines("d1", ["x\ty", "1\t2", "3\t4\r"], false, null);
    expect(p).toMatchObject({ kind: "table", header: ["x", "y"], rows: [["1", "2"], ["3", "4"]] });
  });
  it("does not print compressed or Parquet bytes as text", () => {
    expect(previewFromLines("d1", ["PAR1\u0000junk"], true, null).kind).toBe("binary");
    expect(previewFromLines("d1", ["anything"], true, { format: "csv.gz" }).kind).toBe("binary");
  });
});

describe("paths against allowed folders (controller side; the worker checks again)", () => {
  const roots = ["/data/shared"];
  const code = (p: string, r = roots) => {
    try {
      checkPathAgainstRoots(p, r);
      return null;
    } catch (e) {
      return (e as Error).message;
    }
  };
  it("accepts a file inside", () => expect(code("/data/shared/sales/2024.csv")).toBeNull());
  it("refuses relative paths, '..', outside paths, the root itself and no roots at all", () => {
    expect(code("data/x.csv")).toMatch(/absolute/);
    expect(code("/data/shared/../secret.csv")).toMatch(/'\.\.'/);
    expect(code("/data/other/x.csv")).toMatch(/outside the allowed folders/);
    expect(code("/data/shared")).toMatch(/outside/);
    expect(code("/data/shared/x.csv", [])).toMatch(/No folder is allowed/);
  });
});
