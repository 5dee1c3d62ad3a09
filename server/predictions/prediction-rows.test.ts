import { describe, expect, it } from "vitest";
import { csvLine, joinPredictions, neutraliseCell, parseCsv, safeCsvField, toPredictionRows } from "./csv";

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

  it.each(["=HYPERLINK(\"http://x\")", "+1+1", "-2+3", "@SUM(A1)", "\tcmd", "\r=1", "-", "-Infinity", "-0x1A", "=1"])(
    "prefixes the text cell %j with a single quote in a download",
    (cell) => {
      expect(neutraliseCell(cell)).toBe(`'${cell}`);
      expect(parseCsv(safeCsvField(cell))[0]![0]).toBe(`'${cell}`);
    },
  );

  it.each(["-1.5", "+2", "-3e-4", "-.5", "12", "plain text", "a=b", ""])("leaves %j as it is", (cell) => {
    expect(neutraliseCell(cell)).toBe(cell);
  });

  it("keeps numbers numbers and neutralises every text cell of the joined download, header included", () => {
    const { rows, classes } = toPredictionRows([
      { row_id: 0, prediction: "=cmd|' /C calc'!A0", "proba::=evil": 0.75, "proba::b": 0.25 },
      { row_id: 1, prediction: -1.5, "proba::=evil": 0.5, "proba::b": 0.5 },
    ]);
    const csv = joinPredictions([["=x", "temp"], ["@me", "-1.5"], ["+1+1", "-2"]], rows, classes);
    expect(csv).toBe(
      "'=x,temp,prediction,proba::=evil,proba::b\n" + "'@me,-1.5,'=cmd|' /C calc'!A0,0.75,0.25\n" + "'+1+1,-2,-1.5,0.5,0.5\n",
    );
  });

  it("leaves the model's one-row input file unchanged (a prefixed value would change the prediction)", () => {
    expect(csvLine(["=x", "-1.5", "@a"])).toBe("=x,-1.5,@a");
  });
});
