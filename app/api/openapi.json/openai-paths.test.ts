import { describe, expect, it } from "vitest";
import { deploymentDocument, openApiDocument } from "./openapi-document";

type Operation = { requestBody?: { content: { "application/json": { schema: Record<string, unknown> } } }; responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }> };
const post = (paths: object, path: string) => (paths as Record<string, { post: Operation }>)[path]!.post;

describe("the OpenAI-compatible routes in the OpenAPI documents", () => {
  it("are in the shared document with OpenAI's error shape on every refusal and both answer types", () => {
    const doc = openApiDocument("http://127.0.0.1:3000");
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/api/deployments/{id}/v1/models", "/api/deployments/{id}/v1/chat/completions", "/api/deployments/{id}/v1/completions"]));
    const chat = post(doc.paths, "/api/deployments/{id}/v1/chat/completions");
    expect(Object.keys(chat.responses)).toEqual(["200", "400", "401", "404", "413", "429", "503"]);
    expect(chat.responses["400"]!.content!["application/json"]!.schema).toMatchObject({ properties: { error: { required: ["message", "type", "param", "code"] } } });
    expect(Object.keys(chat.responses["200"]!.content!)).toEqual(["application/json", "text/event-stream"]);
    expect(chat.requestBody!.content["application/json"].schema).toMatchObject({ required: ["model", "messages"], additionalProperties: false });
  });

  it("are not in a deployment's own document (see openai-paths.ts for why), and ask stream_options only with a stream", () => {
    const llm = deploymentDocument("http://127.0.0.1:3000", { kind: "llm", id: "d2", name: "chat", release: { number: 1, version: 3 }, maxNewTokens: 1024 });
    expect(Object.keys(llm.paths).some((p) => p.includes("/v1/"))).toBe(false);
    const shared = openApiDocument("http://127.0.0.1:3000");
    for (const path of ["/api/deployments/{id}/v1/chat/completions", "/api/deployments/{id}/v1/completions"]) {
      expect(post(shared.paths, path).requestBody!.content["application/json"].schema).toMatchObject({ then: { properties: { stream: { const: true } }, required: ["stream"] } });
    }
  });
});
