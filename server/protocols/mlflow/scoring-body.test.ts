import { describe, expect, it } from "vitest";
import { checked, refusalOf } from "../test-support";
import { scoringTable } from "./scoring-body";

const ADELIE = { island: "Torgersen", bill_length_mm: 39.1, sex: "male", year: 2007, tagged: null };
const GENTOO = { island: "Biscoe", bill_length_mm: 47.5, sex: "female", year: 2008, tagged: null };
const COLUMNS = Object.keys(ADELIE);
// pandas' df.to_json(orient="split"): columns, index, data (NaN as null).
const SPLIT = { columns: COLUMNS, index: [0, 1], data: [Object.values(ADELIE), Object.values(GENTOO)] };

describe("MLflow scoring bodies as rows", () => {
  it("reads each of MLflow's four input fields as the same rows", () => {
    const bodies = [
      { dataframe_split: SPLIT },
      { dataframe_records: [ADELIE, GENTOO] },
      { instances: [ADELIE, GENTOO] },
      { inputs: [ADELIE, GENTOO] },
      { instances: Object.fromEntries(COLUMNS.map((c, j) => [c, SPLIT.data.map((r) => r[j])])) },
      { inputs: Object.fromEntries(COLUMNS.map((c, j) => [c, SPLIT.data.map((r) => r[j])])), params: { ignored: true } },
    ];
    for (const body of bodies) expect(checked(scoringTable(body)), JSON.stringify(body)).toEqual([ADELIE, GENTOO]);
  });

  it("reads an object of column: value as one row, as MLflow does", () => {
    expect(checked(scoringTable({ inputs: ADELIE }))).toEqual([ADELIE]);
  });

  it("refuses zero, two or unknown input fields, and a list, naming them", () => {
    expect(refusalOf(() => scoringTable({}))).toMatchObject({ status: 400, fields: [{ path: "dataframe_split | dataframe_records | instances | inputs", message: "one of these input fields is required" }] });
    expect(refusalOf(() => scoringTable({ instances: [ADELIE], inputs: [ADELIE] }))).toMatchObject({
      status: 400,
      fields: [
        { path: "instances", message: "send only one of instances and inputs" },
        { path: "inputs", message: "send only one of instances and inputs" },
      ],
    });
    const unknown = refusalOf(() => scoringTable({ dataframe_split: SPLIT, data: [] }));
    expect(unknown?.fields).toEqual([{ path: "data", message: expect.stringMatching(/^not an input field of MLflow's scoring protocol/) }]);
    expect(unknown?.message).toMatch(/exactly one of the input fields dataframe_split, dataframe_records, instances, inputs .*Received the fields \["dataframe_split","data"\]/);
    expect(refusalOf(() => scoringTable([ADELIE]))?.message).toMatch(/Received a list\.$/);
    expect(refusalOf(() => scoringTable({ inputs: [ADELIE], params: [1] }))?.fields).toEqual([{ path: "params", message: expect.any(String) }]);
  });

  it("refuses a dataframe_split that is not a table, naming the row or column", () => {
    expect(refusalOf(() => scoringTable({ dataframe_split: { ...SPLIT, data: [[1, 2]] } }))?.fields).toEqual([{ path: "dataframe_split.data[0]", message: "has 2 values for 5 columns" }]);
    expect(refusalOf(() => scoringTable({ dataframe_split: { columns: ["a", "a"], data: [[1, 2]] } }))?.fields).toEqual([{ path: "dataframe_split.columns[1]", message: 'the column "a" is named twice' }]);
    expect(refusalOf(() => scoringTable({ dataframe_split: { ...SPLIT, data: [[{}, 1, 2, 3, 4]] } }))?.fields).toEqual([{ path: "dataframe_split.data[0][0]", message: "a value is text, a number, true/false or null" }]);
    expect(refusalOf(() => scoringTable({ dataframe_split: { ...SPLIT, orient: "split" } }))?.fields).toEqual([{ path: "dataframe_split", message: expect.stringMatching(/orient/) }]);
    expect(refusalOf(() => scoringTable({ dataframe_split: { columns: COLUMNS, data: [] } }))?.fields).toEqual([{ path: "dataframe_split.data", message: "at least one row is expected" }]);
  });

  it("refuses columns of different lengths, and a list of lists (this model's columns are named)", () => {
    expect(refusalOf(() => scoringTable({ inputs: { island: ["Biscoe", "Dream"], year: [2007] } }))?.fields).toEqual([{ path: "inputs.year", message: "has 1 values; island has 2 (every column needs one value per row)" }]);
    expect(refusalOf(() => scoringTable({ inputs: { island: ["Biscoe"], year: 2007 } }))?.fields).toEqual([{ path: "inputs.year", message: "a list of values is expected (the other columns are lists)" }]);
    expect(refusalOf(() => scoringTable({ instances: [["Biscoe", 2007]] }))?.fields).toEqual([{ path: "instances[0]", message: "a row is an object of column: value" }]);
  });

  it("names a cell that does not fit the model where the caller wrote it", () => {
    const wrongType = refusalOf(() => checked(scoringTable({ dataframe_split: { ...SPLIT, data: [SPLIT.data[0], ["Biscoe", "long", null, 2008, null]] } })));
    expect(wrongType).toMatchObject({ status: 400, reason: "bad_input", fields: [{ path: "dataframe_split.data[1][1]", message: 'a number is expected (got "long")' }] });
    expect(wrongType?.message).toBe(`The rows do not match the model's features: dataframe_split.data[1][1]: a number is expected (got "long").`);
    // A required column left out is named once, by itself; a column the model lacks where it was named.
    const missing = refusalOf(() => checked(scoringTable({ dataframe_split: { columns: ["island", "wings"], data: [["Biscoe", 2], ["Dream", 2]] } })));
    expect(missing?.fields).toEqual([
      { path: "dataframe_split.columns[1]", message: "not a feature of this model" },
      { path: "year", message: "required: the training data had no missing values here" },
    ]);
    expect(refusalOf(() => checked(scoringTable({ dataframe_records: [ADELIE, { ...GENTOO, year: "2008" }] })))?.fields).toEqual([{ path: "dataframe_records[1].year", message: 'a number is expected (got "2008")' }]);
    expect(refusalOf(() => checked(scoringTable({ inputs: { island: ["Biscoe", 7], year: [2007, true] } })))?.fields).toEqual([{ path: "inputs.year[1]", message: 'a number is expected (got true)' }]);
  });
});
