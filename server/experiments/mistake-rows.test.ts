import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { readDelimitedRows } from "./mistake-rows";

const PENGUINS = path.resolve("tests/fixtures/tabular/penguins.csv");
const tmp = mkdtempSync(path.join(os.tmpdir(), "mistake-rows-"));

describe("reading the worst rows back from the snapshot", () => {
  it("finds data rows by their 0-based row id in the real penguins file", async () => {
    const { header, rows } = await readDelimitedRows(PENGUINS, { format: "csv", delimiter: ",", header: true }, new Set([0, 10]));
    expect(header).toEqual(["species", "island", "bill_length_mm", "bill_depth_mm", "flipper_length_mm", "body_mass_g", "sex", "year"]);
    const lines = (await import("node:fs")).readFileSync(PENGUINS, "utf8").split("\n");
    expect(rows.get(0)!.join(",")).toBe(lines[1]);
    expect(rows.get(10)!.join(",")).toBe(lines[11]);
  });

  it("keeps quoted delimiters, doubled quotes and line breaks inside one field, and skips blank lines as pandas does", async () => {
    const file = path.join(tmp, "quoted.csv");
    writeFileSync(file, '\ufeffname,note\r\n"Smith, J","said ""hi""\nthen left"\r\n\r\nplain,a"b\n');
    const { header, rows } = await readDelimitedRows(file, { format: "csv", delimiter: "," }, new Set([0, 1]));
    expect(header).toEqual(["name", "note"]);
    expect(rows.get(0)).toEqual(["Smith, J", 'said "hi"\nthen left']);
    expect(rows.get(1)).toEqual(["plain", 'a"b']);
  });

  it("reads gzip and tab-separated snapshots", async () => {
    const file = path.join(tmp, "t.tsv.gz");
    writeFileSync(file, gzipSync("a\tb\n1\t2\n3\t4\n"));
    const { rows } = await readDelimitedRows(file, { format: "csv.gz", delimiter: "\t" }, new Set([1]));
    expect(rows.get(1)).toEqual(["3", "4"]);
  });
});
