import { describe, expect, it } from "vitest";
import { refusalOf } from "../test-support";
import { scoringFormat } from "./content-type";

describe("the body type of MLflow's /invocations", () => {
  it("reads JSON and CSV, with a UTF-8 charset at most, as MLflow's scoring server does", () => {
    expect(scoringFormat("application/json")).toBe("json");
    expect(scoringFormat("Application/JSON; charset=UTF-8")).toBe("json");
    expect(scoringFormat("text/csv")).toBe("csv");
    expect(scoringFormat('text/csv; charset="utf-8"')).toBe("csv");
  });

  it("refuses any other type, another charset or another parameter (400, naming Content-Type)", () => {
    for (const type of [null, "text/plain", "application/x-www-form-urlencoded", "text/csv; charset=latin-1", "application/json; format=pandas-split"]) {
      expect(refusalOf(() => scoringFormat(type)), String(type)).toMatchObject({ status: 400, reason: "unsupported_content_type", fields: [{ path: "Content-Type" }] });
    }
  });
});
