import { describe, expect, it } from "vitest";
import { z } from "zod";
import { sseBlock } from "@/contracts/deployments/stream-events";
import { documentServerUrl, openApiDocument } from "./openapi-document";

describe("the OpenAPI document of the deployments' routes", () => {
  const doc = openApiDocument("http://127.0.0.1:3000");

  it("names this server, the bearer scheme, and a schema for every reference it makes", () => {
    expect(doc.servers).toEqual([{ url: "http://127.0.0.1:3000" }]);
    expect(doc.components.securitySchemes.deploymentKey).toMatchObject({ type: "http", scheme: "bearer" });
    const refs = [...JSON.stringify(doc.paths).matchAll(/"\$ref":"#\/components\/schemas\/(\w+)"/g)].map((m) => m[1]!);
    expect(new Set(refs)).toEqual(new Set(Object.keys(doc.components.schemas)));
  });

  it("carries the contracts' constraints into the schemas (a row is required)", () => {
    expect(doc.components.schemas.PredictRequest).toMatchObject({ required: ["rows"], properties: { rows: { minItems: 1 } } });
    expect(JSON.stringify(doc.components.schemas)).not.toContain("$schema");
  });

  it("describes the stream as it is on the wire: the event's name, and its data without the type", () => {
    const stream = doc.paths["/api/deployments/{id}/stream"].post.responses["200"].content["text/event-stream"];
    expect(Object.keys(stream["x-sse-data"])).toEqual(["metadata", "delta", "heartbeat", "result", "error"]);
    const block = sseBlock({ type: "result", text: "hi", promptTokens: 3, generatedTokens: 1, finishReason: "stop" });
    const data = JSON.parse(/^data: (.*)$/m.exec(block)![1]!) as Record<string, unknown>;
    const schema = z.object({ properties: z.record(z.string(), z.unknown()), required: z.array(z.string()) }).parse(doc.components.schemas.StreamData_result);
    expect(Object.keys(data).sort()).toEqual(Object.keys(schema.properties).sort());
    expect(schema.required).not.toContain("type");
  });

  it("documents a missing deployment (404) and a body too large (413) on the routes that answer them", () => {
    for (const p of ["predict", "generate", "stream"] as const) {
      const responses = doc.paths[`/api/deployments/{id}/${p}`].post.responses as Record<string, unknown>;
      expect(Object.keys(responses), p).toEqual(expect.arrayContaining(["401", "404", "413"]));
    }
    expect(Object.keys(doc.paths["/api/deployments/{id}/health"].get.responses)).toEqual(expect.arrayContaining(["401", "404"]));
  });

  it("names the public origin when one is set, else the address the client reached, never a forwarded scheme", () => {
    expect(documentServerUrl("https://ml.example.test", "127.0.0.1:3000")).toBe("https://ml.example.test");
    expect(documentServerUrl(undefined, "127.0.0.1:3000")).toBe("http://127.0.0.1:3000");
  });
});
