import { describe, expect, it } from "vitest";
import { checked, refusalOf } from "../test-support";
import { inferTable, parseInferRequest } from "./infer-request";

// One tensor per column, as the protocol's REST examples write a request (id, inputs, outputs).
const REQUEST = {
  id: "42",
  inputs: [
    { name: "island", shape: [2], datatype: "BYTES", data: ["Torgersen", "Biscoe"] },
    { name: "bill_length_mm", shape: [2, 1], datatype: "FP32", data: [[39.1], [47.5]] },
    { name: "year", shape: [2], datatype: "INT64", data: [2007, 2008] },
    { name: "tagged", shape: [2], datatype: "BOOL", data: [true, null] },
  ],
  outputs: [{ name: "predict" }],
};

const rowsOf = (body: unknown) => checked(inferTable(parseInferRequest(body)));

describe("an Open Inference v2 request as rows", () => {
  it("reads one tensor per column, flat or nested [N, 1], a null as a missing value", () => {
    expect(rowsOf(REQUEST)).toEqual([
      { island: "Torgersen", bill_length_mm: 39.1, sex: null, year: 2007, tagged: true },
      { island: "Biscoe", bill_length_mm: 47.5, sex: null, year: 2008, tagged: null },
    ]);
  });

  it("refuses elements that are not of their tensor's datatype, naming the element", () => {
    const body = { inputs: [{ name: "island", shape: [2], datatype: "BYTES", data: ["Dream", 3] }, { name: "year", shape: [2], datatype: "INT8", data: [2007, 1.5] }] };
    expect(refusalOf(() => rowsOf(body))?.fields).toEqual([
      { path: "inputs[0].data[1]", message: "BYTES data is text (got 3)" },
      { path: "inputs[1].data[0]", message: "INT8 data is an integer from -128 to 127 (got 2007)" },
      { path: "inputs[1].data[1]", message: "INT8 data is an integer from -128 to 127 (got 1.5)" },
    ]);
  });

  it("refuses tensors that are not one column of one table", () => {
    const r = refusalOf(() =>
      rowsOf({
        inputs: [
          { name: "island", shape: [2, 2], datatype: "BYTES", data: ["a", "b", "c", "d"] },
          { name: "year", shape: [2], datatype: "INT64", data: [2007] },
          { name: "sex", shape: [3], datatype: "BYTES", data: ["male", "male", "male"] },
          { name: "tagged", shape: [2], datatype: "BOOL", data: [true, false] },
          { name: "sex", shape: [0], datatype: "BYTES", data: [] },
        ],
      }),
    );
    expect(r?.fields).toEqual([
      { path: "inputs[0].shape", message: "one value per row is expected: shape [N] or [N, 1] (got [2,2])" },
      { path: "inputs[1].data", message: "holds 1 values; its shape [2] says 2" },
      { path: "inputs[3].shape", message: "2 rows; the tensors before it have 3 (one value per row in every tensor)" },
      { path: "inputs[4].name", message: 'a second tensor named "sex" (inputs[2])' },
      { path: "inputs[4].shape", message: "at least one row is expected" },
    ]);
  });

  it("refuses a body outside the protocol, and Triton's binary data, naming the field", () => {
    expect(refusalOf(() => parseInferRequest({ inputs: [] }))?.fields).toEqual([{ path: "inputs", message: "one input tensor per feature column is expected" }]);
    expect(refusalOf(() => parseInferRequest({ inputs: [{ ...REQUEST.inputs[0], datatype: "STRING" }] }))?.fields).toEqual([{ path: "inputs[0].datatype", message: expect.stringMatching(/BYTES/) }]);
    expect(refusalOf(() => parseInferRequest({ ...REQUEST, rows: [] }))?.fields).toEqual([{ path: "(the body)", message: expect.stringMatching(/rows/) }]);
    expect(refusalOf(() => parseInferRequest({ ...REQUEST, outputs: [{ name: "predict", parameters: { binary_data: true } }] }))?.fields).toEqual([{ path: "outputs[0].parameters.binary_data", message: expect.stringMatching(/not supported/) }]);
    expect(parseInferRequest({ ...REQUEST, parameters: { binary_data_output: false }, outputs: [{ name: "predict", parameters: { binary_data: false } }] })).toMatchObject({ id: "42" });
  });

  it("names a cell that does not fit the model by its tensor and element, and a missing column by itself", () => {
    const wrong = { inputs: [{ name: "island", shape: [1], datatype: "BYTES", data: ["Dream"] }, { name: "bill_length_mm", shape: [1], datatype: "BYTES", data: ["39.1"] }, { name: "wings", shape: [1], datatype: "INT64", data: [2] }] };
    expect(refusalOf(() => rowsOf(wrong))?.fields).toEqual([
      { path: "inputs[2].name", message: "not a feature of this model" },
      { path: "inputs[1].data[0]", message: 'a number is expected (got "39.1")' },
      { path: "year", message: "required: the training data had no missing values here" },
    ]);
  });
});
