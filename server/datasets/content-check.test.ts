import { describe, expect, it } from "vitest";
import { ContentChecker, type ContentLimits } from "./content-check";

const limits: ContentLimits = { shape: "table", encoding: "utf-8", maxLineBytes: 64, maxColumns: 5 };
function check(chunks: (string | Buffer)[], l = limits) {
  const c = new ContentChecker("f.csv", l);
  for (const ch of chunks) c.push(typeof ch === "string" ? Buffer.from(ch) : ch);
  c.finish();
  return c;
}
const codeOf = (fn: () => unknown) => {
  try {
    fn();
    return null;
  } catch (e) {
    return (e as { details?: { code?: string } }).details?.code;
  }
};

describe("content checks while streaming", () => {
  it("accepts a small CSV split across chunks, even mid-character", () => {
    const bytes = Buffer.from("name,city\nJosé,Zürich\n");
    const cut = bytes.indexOf(0xc3) + 1; // between the two bytes of é
    expect(check([bytes.subarray(0, cut), bytes.subarray(cut)]).sniffed).toBe("text");
  });
  it("refuses empty and whitespace-only files", () => {
    expect(codeOf(() => check([]))).toBe("empty_file");
    expect(codeOf(() => check([" \n\r\n"]))).toBe("empty_file");
  });
  it("refuses a header with no data rows, like an empty file, whatever blank lines follow it", () => {
    expect(codeOf(() => check(["species,island,mass\n"]))).toBe("header_only");
    expect(codeOf(() => check(["species,island", ",mass\r\n\r\n  \n"]))).toBe("header_only");
    expect(codeOf(() => check(["species,island,mass"]))).toBe("header_only");
    expect(check(["species,island,mass\n", "Adelie,Biscoe,3750"]).sniffed).toBe("text");
    expect(() => check(["a,b\n"])).toThrow(/f\.csv has a header but no data rows/);
  });
  it("refuses a NUL byte even after invalid UTF-8 in the same chunk", () => {
    expect(codeOf(() => check([Buffer.from([0x89, 0x50, 0x00])]))).toBe("not_text");
  });
  it("names the line and offset of invalid UTF-8, and accepts it as Latin-1", () => {
    const err = (() => {
      try {
        check([Buffer.from("a,b\nx,\xe9\n", "latin1")]);
        return null;
      } catch (e) {
        return e as { message: string; details?: { offset?: number; line?: number } };
      }
    })();
    expect(err?.details).toMatchObject({ offset: 6, line: 2 });
    expect(err?.message).toMatch(/Latin-1/);
    expect(check([Buffer.from("a,b\nx,\xe9\n", "latin1")], { ...limits, encoding: "latin-1" }).sniffed).toBe("text");
  });
  it("refuses a truncated multi-byte character at the end", () => {
    expect(codeOf(() => check([Buffer.from([0x61, 0x0a, 0xe2, 0x82])]))).toBe("invalid_utf8");
  });
  it("refuses a line over the cap as soon as it passes it", () => {
    const c = new ContentChecker("f.csv", limits);
    c.push(Buffer.from("a,b\n" + "x".repeat(60)));
    expect(codeOf(() => c.push(Buffer.from("y".repeat(10))))).toBe("line_too_long");
  });
  it("counts header columns on the delimiter that gives the most, quoted ones not counting", () => {
    expect(codeOf(() => check(["a,b,c,d,e,f\n1,2,3,4,5,6\n"]))).toBe("too_many_columns");
    expect(codeOf(() => check(["a\tb\tc\td\te\tf\n1\t2\t3\t4\t5\t6\n"]))).toBe("too_many_columns");
    expect(check(['a,"b,c,d,e,f",g\n1,2,3\n']).sniffed).toBe("text");
    expect(check(['"a;b;c;d;e;f",g\n1,2\n']).sniffed).toBe("text");
  });
  it("reads a JSONL file of examples as lines: one example is enough, commas are not columns", () => {
    const jsonl = { ...limits, shape: "lines" as const };
    const one = '{"prompt": "a, b, c, d, e, f?", "completion": "g"}\n';
    expect(check([one], jsonl).sniffed).toBe("text");
    expect(codeOf(() => check([one]))).toBe("too_many_columns");
    expect(codeOf(() => check([" \n"], jsonl))).toBe("empty_file");
    expect(codeOf(() => check([Buffer.from([0x7b, 0x00])], jsonl))).toBe("not_text");
    expect(codeOf(() => check(["x".repeat(65)], jsonl))).toBe("line_too_long");
  });
  it("refuses a compressed file as JSONL examples", () => {
    expect(() => check([Buffer.from([0x1f, 0x8b, 0x08, 0x00])], { ...limits, shape: "lines" })).toThrow(/gzip-compressed, not a JSONL text file/);
  });
  it("skips text checks for gzip and Parquet by magic bytes", () => {
    expect(check([Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00])]).sniffed).toBe("gzip");
    expect(check([Buffer.from("PAR1\x00\x00")]).sniffed).toBe("parquet");
  });
});
