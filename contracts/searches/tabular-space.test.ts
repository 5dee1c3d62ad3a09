import { describe, expect, it } from "vitest";
import { ZSearchSpace } from "../recipes/search";
import { droppedColumns, featureOptionColumns, featureOptionsFor, hyperparametersOf, tabularSpaceWith } from "./tabular-space";

describe("the tabular search space", () => {
  it("turns a trial's settings into the chosen family's AutoGluon hyperparameters only", () => {
    expect(hyperparametersOf({ family: "CAT", "CAT.depth": 6, "CAT.learning_rate": 0.1, "drop.id": true })).toEqual({ CAT: { depth: 6, learning_rate: 0.1 } });
    expect(() => hyperparametersOf({ "GBM.num_leaves": 3 })).toThrow(/model family/);
  });

  it("offers a yes/no choice per flagged column, with safe unique names", () => {
    const options = featureOptionsFor(["customer id", "customer-id", "notes"]);
    expect(options).toEqual([
      { param: "drop.customer_id", column: "customer id" },
      { param: "drop.customer_id_2", column: "customer-id" },
      { param: "drop.notes", column: "notes" },
    ]);
    const space = ZSearchSpace.parse(tabularSpaceWith(options));
    expect(space.params.at(-1)).toEqual({ kind: "categorical", name: "drop.notes", choices: [false, true] });
    expect(droppedColumns(options, { family: "GBM", "drop.customer_id": true, "drop.customer_id_2": false, "drop.notes": true })).toEqual(["customer id", "notes"]);
  });

  it("offers only columns still in use that a check flagged as maybe harmful", () => {
    const issues = [
      { code: "id_like_column", columns: ["id"] },
      { code: "leakage_suspect", columns: ["total", "species"] },
      { code: "missing_values", columns: ["sex"] },
      { code: "duplicate_rows", columns: ["bill"] },
    ];
    expect(featureOptionColumns(issues, "species", ["id"])).toEqual(["total"]);
    expect(featureOptionColumns(issues, "species", [])).toEqual(["id", "total"]);
  });
});
