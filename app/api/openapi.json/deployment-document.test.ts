import { describe, expect, it } from "vitest";
import type { FeatureSchemaEntry } from "@/contracts/recipes/tabular";
import { deploymentDocument } from "./openapi-document";

const feature = (f: Partial<FeatureSchemaEntry> & Pick<FeatureSchemaEntry, "name" | "kind">): FeatureSchemaEntry => ({ dtype: "object", nullable: false, usedByModel: true, example: null, ...f });

const FEATURES = [
  feature({ name: "island", kind: "categorical", categories: ["Biscoe", "Dream", "Torgersen"], example: "Biscoe" }),
  feature({ name: "bill_length_mm", kind: "numeric", dtype: "float64", nullable: true, min: 32.1, max: 59.6, example: 39.1 }),
  feature({ name: "smoker", kind: "boolean", categories: ["yes", "no"] }),
  feature({ name: "seen", kind: "datetime" }),
  feature({ name: "note", kind: "text", usedByModel: false }),
];

describe("a deployment's own OpenAPI document", () => {
  const tabular = deploymentDocument("http://127.0.0.1:3000", { kind: "tabular", id: "d1", name: "species-api", release: { number: 2, version: 1 }, features: FEATURES, maxRows: 1000 });

  it("has only its kind's routes, at its own paths, and names what it serves", () => {
    expect(Object.keys(tabular.paths)).toEqual(["/api/deployments/d1/predict", "/api/deployments/d1/health"]);
    expect(tabular.info.description).toContain("serving version 1 (release 2)");
    const refs = [...JSON.stringify(tabular.paths).matchAll(/"\$ref":"#\/components\/schemas\/(\w+)"/g)].map((m) => m[1]!);
    expect(new Set(refs)).toEqual(new Set(Object.keys(tabular.components.schemas)));
  });

  it("types each row by the model's features: required where training had no missing values, null allowed where it had, nothing else", () => {
    const request = (tabular.paths["/api/deployments/d1/predict"] as unknown as { post: { requestBody: { content: { "application/json": { schema: { properties: { rows: Record<string, unknown> } } } } } } }).post.requestBody.content["application/json"].schema;
    const rows = request.properties.rows as { minItems: number; maxItems: number; items: { required: string[]; additionalProperties: boolean; properties: Record<string, Record<string, unknown>> } };
    expect(rows).toMatchObject({ minItems: 1, maxItems: 1000 });
    expect(rows.items.required).toEqual(["island", "smoker", "seen"]);
    expect(rows.items.additionalProperties).toBe(false);
    expect(rows.items.properties.island).toMatchObject({ type: ["string", "number"], examples: ["Biscoe"] });
    expect(rows.items.properties.bill_length_mm).toMatchObject({ anyOf: [{ type: "number" }, { type: "null" }] });
    expect(rows.items.properties.bill_length_mm!.description).toContain("trained on 32.1 to 59.6");
    expect(rows.items.properties.smoker).toMatchObject({ anyOf: [{ type: "boolean" }, { type: "string", enum: ["yes", "no"] }] });
    expect(rows.items.properties.seen).toMatchObject({ type: "string", format: "date-time" });
    expect(rows.items.properties.note!.description).toContain("not used by the model");
  });

  it("gives a language model's routes a prompt or messages, never both, with its token limit", () => {
    const llm = deploymentDocument("http://127.0.0.1:3000", { kind: "llm", id: "d2", name: "chat", release: { number: 1, version: 3 }, maxNewTokens: 1024 });
    expect(Object.keys(llm.paths)).toEqual(["/api/deployments/d2/generate", "/api/deployments/d2/stream", "/api/deployments/d2/health"]);
    const body = JSON.stringify(llm.paths["/api/deployments/d2/generate"]);
    expect(body).toContain('"required":["prompt"]');
    expect(body).toContain('"required":["messages"]');
    expect(body).toContain('"maximum":1024');
    const refs = [...JSON.stringify(llm.paths).matchAll(/"\$ref":"#\/components\/schemas\/(\w+)"/g)].map((m) => m[1]!);
    expect(new Set(refs)).toEqual(new Set(Object.keys(llm.components.schemas)));
  });
});
