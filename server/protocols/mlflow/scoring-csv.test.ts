import { describe, expect, it } from "vitest";
import { checked, FEATURES, refusalOf } from "../test-support";
import { csvTable } from "./scoring-csv";

describe("an MLflow text/csv body as rows", () => {
  it("types each cell by its feature, as pandas' read_csv reads it (pandas' to_csv of a frame with gaps)", () => {
    const csv = 'island,bill_length_mm,sex,year,tagged\nTorgersen,39.1,male,2007,True\n"Biscoe",,NaN,2008.0,false\r\nDream,4.5e1,NA,2009,\n';
    expect(checked(csvTable(csv, FEATURES))).toEqual([
      { island: "Torgersen", bill_length_mm: 39.1, sex: "male", year: 2007, tagged: true },
      { island: "Biscoe", bill_length_mm: null, sex: null, year: 2008, tagged: false },
      { island: "Dream", bill_length_mm: 45, sex: null, year: 2009, tagged: null },
    ]);
  });

  it("names a cell that does not fit by its row after the header and its column", () => {
    const r = refusalOf(() => checked(csvTable("island,year,wings\nBiscoe,2007,2\nDream,long ago,2\n", FEATURES)));
    expect(r).toMatchObject({ status: 400, reason: "bad_input" });
    expect(r?.fields).toEqual([
      { path: "csv.header[2]", message: "not a feature of this model" },
      { path: "csv[1].year", message: 'a number is expected (got "long ago")' },
    ]);
    expect(refusalOf(() => checked(csvTable("island,sex\nBiscoe,male\n", FEATURES)))?.fields).toEqual([{ path: "year", message: "required: the training data had no missing values here" }]);
  });

  it("refuses a text that is not a table with a header", () => {
    expect(refusalOf(() => csvTable("", FEATURES))?.fields).toEqual([{ path: "csv", message: "empty" }]);
    expect(refusalOf(() => csvTable("island,year\n", FEATURES))?.fields).toEqual([{ path: "csv", message: "no row after the header" }]);
    expect(refusalOf(() => csvTable("island,year\nBiscoe\n", FEATURES))?.fields).toEqual([{ path: "csv[0]", message: "has 1 fields; the header has 2" }]);
    expect(refusalOf(() => csvTable("year,year\n1,2\n", FEATURES))?.fields).toEqual([{ path: "csv.header[1]", message: 'the column "year" is named twice' }]);
  });
});
