import { describe, expect, it } from "vitest";
import { z } from "zod";
import { openApiDocument } from "./openapi-document";

describe("the OpenAPI document of the deployments' routes", () => {
  const doc = openApiDocument("http://127.0.0.1:3000");

  it("names this server, the bearer scheme, and a schema for every reference it makes", () => {
    expect(doc.servers).toEqual([{ url: "http://127.0.0.1:3000" }]);
    expect(doc.components.securitySchemes.deploymentKey).toMatchObject({ type: "http", scheme: "bearer" });
    const refs = [...JSON.stringify(doc.paths).matchAll(/"\$ref":"#\/components\/schemas\/(\w+)"/g)].map((m) => m[1]!);
    expect(new Set(refs)).toEqual(new Set(Object.keys(doc.components.schemas)));
  });

  it("carries the contracts' constraints into the schemas (a row is required, the stream's events by type)", () => {
    expect(doc.components.schemas.PredictRequest).toMatchObject({ required: ["rows"], properties: { rows: { minItems: 1 } } });
    const ZUnion = z.object({ oneOf: z.array(z.object({ properties: z.object({ type: z.object({ const: z.string() }) }) })) });
    const events = ZUnion.parse(doc.components.schemas.StreamEvent).oneOf.map((e) => e.properties.type.const);
    expect(events).toEqual(["metadata", "delta", "heartbeat", "result", "error"]);
    expect(JSON.stringify(doc.components.schemas)).not.toContain("$schema");
  });
});
