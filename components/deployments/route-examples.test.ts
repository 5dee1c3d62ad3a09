import { describe, expect, it } from "vitest";
import type { FeatureSchemaEntry } from "@/contracts/recipes";
import { curlExample, exampleRow, pythonExample } from "./route-examples";

const feature = (f: Partial<FeatureSchemaEntry> & Pick<FeatureSchemaEntry, "name" | "kind">): FeatureSchemaEntry => ({ dtype: "object", nullable: false, usedByModel: true, example: null, ...f });

describe("the copyable route examples", () => {
  it("curl names the real URL, the key (or where it goes) and a row, quoting a single quote for the shell", () => {
    expect(curlExample("http://127.0.0.1:3000", "/api/deployments/d1/predict", null, { island: "Biscoe", note: "it's" })).toBe(
      [
        "curl -s -X POST 'http://127.0.0.1:3000/api/deployments/d1/predict' \\",
        "  -H 'Authorization: Bearer <your deployment key>' \\",
        "  -H 'content-type: application/json' \\",
        `  -d '{"rows":[{"island":"Biscoe","note":"it'\\''s"}]}'`,
      ].join("\n"),
    );
  });

  it("the example row takes each feature's training example, a seen category, or null", () => {
    const row = exampleRow([
      feature({ name: "bill_length_mm", kind: "numeric", example: 39.1, min: 32 }),
      feature({ name: "flipper", kind: "numeric", example: "181", min: 170 }),
      feature({ name: "island", kind: "categorical", categories: ["Biscoe", "Dream"] }),
      feature({ name: "sex", kind: "categorical", nullable: true }),
    ]);
    expect(row).toEqual({ bill_length_mm: 39.1, flipper: 181, island: "Biscoe", sex: null });
  });

  it("the Python example writes Python literals: None for a missing value and the key's placeholder", () => {
    const code = pythonExample("http://127.0.0.1:3000", "/api/deployments/d1/predict", null, { island: "Biscoe", sex: null, alive: true, mass: 3750 });
    expect(code).toContain('"Authorization": "Bearer <your deployment key>"');
    expect(code).toContain('"sex": None,');
    expect(code).toContain('"http://127.0.0.1:3000/api/deployments/d1/predict"');
    expect(code).toContain('"alive": True,');
  });
});
