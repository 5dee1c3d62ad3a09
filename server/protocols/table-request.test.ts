import { describe, expect, it } from "vitest";
import { DomainError } from "@/server/errors";
import { llmElsewhere } from "./tabular-deployment";
import { relocateRefusal, type TableRequest } from "./table-request";

const table: TableRequest = { rows: [], cell: (i, c) => `data[${i}]${c ? `[${c}]` : ""}`, column: (c) => `columns.${c}` };

describe("a predict refusal in the caller's shape", () => {
  it("moves each field path to the caller's, keeps the code and details, and names the first in the message", () => {
    const err = new DomainError("BAD_INPUT", "The rows do not match the model's features: rows[1].year: x.", {
      code: "bad_input",
      fields: [
        { path: "rows[1].year", message: "x" },
        { path: "rows[0]", message: "a row is an object" },
        { path: "rows[2].wings", message: "not a feature of this model" },
        { path: "rows[3].wings", message: "not a feature of this model" },
      ],
    });
    const moved = relocateRefusal(err, table) as DomainError;
    expect(moved).toMatchObject({ code: "BAD_INPUT", reason: "bad_input", message: "The rows do not match the model's features: data[1][year]: x (and 2 more)." });
    expect(moved.details?.fields).toEqual([
      { path: "data[1][year]", message: "x" },
      { path: "data[0]", message: "a row is an object" },
      { path: "columns.wings", message: "not a feature of this model" },
    ]);
  });

  it("leaves a refusal without fields as it was", () => {
    const notReady = new DomainError("UNAVAILABLE", "stopped", { code: "not_ready" });
    expect(relocateRefusal(notReady, table)).toBe(notReady);
  });

  it("answers a language model's deployment 404 wrong_kind, naming the routes it does answer", () => {
    const err = llmElsewhere("d1", "MLflow's /invocations");
    expect(err).toMatchObject({ httpStatus: 404, reason: "wrong_kind" });
    expect(err.message).toMatch(/^This deployment serves a language model .*POST \/api\/deployments\/d1\/generate or .*, not MLflow's \/invocations\.$/);
    expect(err.details?.use).toEqual(expect.arrayContaining(["/api/deployments/d1/generate", "/api/deployments/d1/stream"]));
  });
});
