import { describe, expect, it } from "vitest";
import { openApiDocument } from "./openapi-document";

describe("the MLflow and Open Inference paths of the OpenAPI document", () => {
  const doc = openApiDocument("http://127.0.0.1:3000");
  const paths = doc.paths as Record<string, Record<string, { responses: Record<string, unknown>; requestBody?: { content: Record<string, unknown> } }>>;

  it("describes the four routes, each schema inline (no reference but Trainyard's refusal envelope)", () => {
    expect(Object.keys(paths)).toEqual(
      expect.arrayContaining(["/api/deployments/{id}/invocations", "/api/deployments/{id}/ping", "/api/deployments/{id}/v2/models/{name}/infer", "/api/deployments/{id}/v2/health/ready"]),
    );
    const text = JSON.stringify([paths["/api/deployments/{id}/invocations"], paths["/api/deployments/{id}/v2/models/{name}/infer"]]);
    expect(text).not.toContain("$defs");
    expect(text).not.toContain("$schema");
    expect(new Set([...text.matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1]))).toEqual(new Set(["#/components/schemas/Refusal"]));
  });

  it("takes JSON and CSV on /invocations, and documents every refusal the routes answer", () => {
    expect(Object.keys(paths["/api/deployments/{id}/invocations"]!.post!.requestBody!.content)).toEqual(["application/json", "text/csv"]);
    for (const p of ["invocations", "v2/models/{name}/infer"]) {
      expect(Object.keys(paths[`/api/deployments/{id}/${p}`]!.post!.responses), p).toEqual(expect.arrayContaining(["200", "400", "401", "404", "413", "429", "503"]));
    }
    for (const p of ["ping", "v2/health/ready"]) expect(Object.keys(paths[`/api/deployments/{id}/${p}`]!.get!.responses), p).toEqual(expect.arrayContaining(["200", "401", "404", "503"]));
  });
});
