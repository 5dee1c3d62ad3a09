import { describe, expect, it } from "vitest";
import { csvLine, joinPredictions, parseCsv, toPredictionRows } from "./csv";

describe("prediction CSV helpers", () => {
  it("quotes fields that need it and parses them back", () => {
    const line = csvLine(["a,b", 'say "hi"', 1.5, null, " pad"]);
    expect(line).toBe('"a,b","say ""hi""",1.5,," pad"');
    expect(parseCsv(`${line}\r\nx,y\n`)).toEqual([["a,b", 'say "hi"', "1.5", "", " pad"], ["x", "y"]]);
  });

  it("keeps newlines inside quoted fields and drops a byte order mark", () => {
    expect(parseCsv('\ufeffh1,h2\n"two\nlines",z')).toEqual([["h1", "h2"], ["two\nlines", "z"]]);
  });

  it("joins predictions to input rows by row id, with one column per class", () => {
    const { rows, classes } = toPredictionRows([
      { row_id: 1n, prediction: "Gentoo", "proba::Adelie": 0.1, "proba::Gentoo": 0.9 },
      { row_id: 0n, prediction: "Adelie", "proba::Adelie": 0.8, "proba::Gentoo": 0.2 },
    ]);
    expect(classes).toEqual(["Adelie", "Gentoo"]);
    expect(joinPredictions([["bill", "island"], ["39.1", "Torgersen"], ["47.5", "Biscoe"]], rows, classes)).toBe(
      "bill,island,prediction,proba::Adelie,proba::Gentoo\n39.1,Torgersen,Adelie,0.8,0.2\n47.5,Biscoe,Gentoo,0.1,0.9\n",
    );
  });

  it("has no probability columns for regression", () => {
    const { rows, classes } = toPredictionRows([{ row_id: 0, prediction: 4.2 }]);
    expect(classes).toEqual([]);
    expect(joinPredictions([["x"], ["1"]], rows, classes)).toBe("x,prediction\n1,4.2\n");
  });
});
