import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { binaryProblem, readFileHeader, targetProblem } from "./read-header";

const dir = mkdtempSync(path.join(os.tmpdir(), "trainyard-header-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, body: string | Buffer) => {
  const p = path.join(dir, name);
  writeFileSync(p, body);
  return p;
};

describe("reading a data file's column names before upload", () => {
  it("reads a CSV header, quoted names included", async () => {
    const h = await readFileHeader(file("d.csv", '"carat","cut","price"\n0.23,"Ideal",326\n'));
    expect(h?.columns).toEqual(["carat", "cut", "price"]);
    expect(targetProblem(h!, "price")).toBeNull();
  });

  it("reads TSV, semicolons, a byte-order mark and Windows line ends", async () => {
    expect((await readFileHeader(file("t.tsv", "a\tb c\td\n1\t2\t3\n")))?.columns).toEqual(["a", "b c", "d"]);
    expect((await readFileHeader(file("s.csv", "\ufeffx;y;z\r\n1;2;3\r\n")))?.columns).toEqual(["x", "y", "z"]);
  });

  it("reads the header of a gzip CSV", async () => {
    const h = await readFileHeader(file("p.csv.gz", gzipSync("species,island\nAdelie,Biscoe\n")));
    expect(h).toMatchObject({ format: "gzip", columns: ["species", "island"] });
  });

  it("names the columns, and the likely one, when the target is not among them", async () => {
    const h = await readFileHeader(file("p.csv", "species,island,sex\nAdelie,Biscoe,male\n"));
    expect(targetProblem(h!, "Species")).toBe('There is no column "Species" in the file (columns: species, island, sex). Did you mean "species"? Names are case-sensitive.');
    expect(targetProblem(h!, "tag")).toBe('There is no column "tag" in the file (columns: species, island, sex).');
  });

  it("accepts column_N for a file without a header, up to its width", async () => {
    const h = await readFileHeader(file("n.csv", "1,2,3\n4,5,6\n"));
    expect(targetProblem(h!, "column_3")).toBeNull();
    expect(targetProblem(h!, "column_4")).toMatch(/no column "column_4"/);
  });

  it("accepts a name under another delimiter than the guessed one (the profile sniffs more rows)", async () => {
    const h = await readFileHeader(file("m.csv", "a;b,c;d\n1;2,3;4\n"));
    expect(targetProblem(h!, "b,c")).toBeNull();
  });

  it("leaves files it cannot judge to the server", async () => {
    expect(await readFileHeader(file("e.csv", ""))).toBeNull();
    expect(await readFileHeader(file("q.csv", '"a\nb",c\n1,2\n'))).toBeNull();
    expect(await readFileHeader(file("bad.parquet", Buffer.from("PAR1 not really")))).toBeNull();
  });

  it("suggests the column one or two edits away, and nothing for a name far from every column", async () => {
    const h = (await readFileHeader(file("n.csv", "species,island,bill_length_mm,id\nAdelie,Biscoe,39.1,1\n")))!;
    expect(targetProblem(h, "specie")).toMatch(/Did you mean "species"\?$/);
    expect(targetProblem(h, "bill_lenght_mm")).toMatch(/Did you mean "bill_length_mm"\?$/);
    expect(targetProblem(h, "Species")).toMatch(/Did you mean "species"\? Names are case-sensitive\.$/);
    expect(targetProblem(h, "price")).not.toMatch(/Did you mean/);
    expect(targetProblem(h, "x")).not.toMatch(/Did you mean/);
  });

  it("calls a binary file binary (a picture named anything), and never gzip or Parquet", () => {
    const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
    expect(binaryProblem(file("picture.png", png))).toMatch(/^picture\.png contains a NUL byte at offset 8: it is binary data, not a text table/);
    expect(binaryProblem(file("p.csv.gz", gzipSync("a,b\n1,2\n")))).toBeNull();
    expect(binaryProblem(file("fine.csv", "a,b\n1,2\n"))).toBeNull();
  });
});
