import { describe, expect, it } from "vitest";
import { csvLine, guessDelimiter, headerFields, parseRecords, splitHeader } from "./csv";

describe("the server's CSV reader", () => {
  it("reads quoted commas, doubled quotes and an empty last field", () => {
    expect(parseRecords('a,"b, c","say ""hi""",', { delimiter: "," })).toEqual([["a", "b, c", 'say "hi"', ""]]);
  });

  it("keeps a quoted line break inside its field and drops a byte order mark", () => {
    expect(parseRecords('\ufeffh1,h2\n"two\nlines",z', { delimiter: "," })).toEqual([["h1", "h2"], ["two\nlines", "z"]]);
  });

  it("ends records at CRLF, LF and a lone CR", () => {
    expect(parseRecords("a,b\r\n1,2\n3,4\r5,6\r", { delimiter: "," })).toEqual([["a", "b"], ["1", "2"], ["3", "4"], ["5", "6"]]);
  });

  it("keeps blank lines unless asked to skip them, as pandas does", () => {
    expect(parseRecords("a\n\n1\n", { delimiter: "," })).toEqual([["a"], [""], ["1"]]);
    expect(parseRecords("a\n\n1\n", { delimiter: ",", skipBlankLines: true })).toEqual([["a"], ["1"]]);
  });

  it("is lenient like a spreadsheet: stray quotes stay text and rows may differ in length", () => {
    expect(parseRecords('a"b,c\n1\n1,2,3', { delimiter: "," })).toEqual([['a"b', "c"], ["1"], ["1", "2", "3"]]);
  });

  it("leaves out a record cut inside a quoted field, as the end of a bounded look is", () => {
    expect(parseRecords('h1,h2\n1,2\n"cut off', { delimiter: "," })).toEqual([["h1", "h2"], ["1", "2"]]);
  });

  it("stops after the records asked for", () => {
    expect(parseRecords("a\n1\n2\n3\n", { delimiter: ",", maxRecords: 2 })).toEqual([["a"], ["1"]]);
  });

  it("splits a header on the delimiter that gives the most fields, quoted ones not counting", () => {
    expect(guessDelimiter("a\tb\tc")).toBe("\t");
    expect(splitHeader('"a,b";"c";d')).toEqual({ delimiter: ";", fields: ["a,b", "c", "d"] });
    expect(headerFields('a,"b,c",d')).toEqual(["a", "b,c", "d"]);
    expect(headerFields("a|b,c", "|")).toEqual(["a", "b,c"]);
    expect(guessDelimiter("single")).toBe(",");
    expect(headerFields('"never closed,x')).toEqual(['"never closed,x']);
  });

  it("writes fields that need it quoted, and reads them back", () => {
    const line = csvLine(["a,b", 'say "hi"', 1.5, null, " pad", Number.NaN]);
    expect(line).toBe('"a,b","say ""hi""",1.5,," pad",');
    expect(parseRecords(`${line}\r\nx,y\n`, { delimiter: "," })).toEqual([["a,b", 'say "hi"', "1.5", "", " pad", ""], ["x", "y"]]);
  });

  it("writes a model's input as it is (no spreadsheet neutralising: a changed value changes the prediction)", () => {
    expect(csvLine(["=x", "-1.5", "@a"])).toBe("=x,-1.5,@a");
  });
});
