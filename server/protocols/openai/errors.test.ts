import { describe, expect, it } from "vitest";
import { DomainError, badInput } from "@/server/errors";
import { BodyTooLarge } from "@/server/http/json-body";
import { asOpenAiRefusal, openAiErrorResponse } from "./errors";

const answer = async (res: Response) => ({ status: res.status, retryAfter: res.headers.get("retry-after"), body: (await res.json()) as unknown });

describe("the OpenAI-compatible routes' refusals", () => {
  it("are OpenAI's error shape with the domain's status, reason and the parameter", async () => {
    expect(await answer(openAiErrorResponse(badInput("Unrecognized request argument supplied: tools", { code: "unsupported_parameter", param: "tools" }), "Chat"))).toEqual({
      status: 400,
      retryAfter: null,
      body: { error: { message: "Unrecognized request argument supplied: tools", type: "invalid_request_error", param: "tools", code: "unsupported_parameter" } },
    });
    const notReady = new DomainError("UNAVAILABLE", "loading", { code: "not_ready", retryAfterSeconds: 1 });
    expect(await answer(openAiErrorResponse(notReady, "Chat"))).toMatchObject({ status: 503, retryAfter: "1", body: { error: { type: "server_error", code: "not_ready" } } });
    const overloaded = new DomainError("TOO_MANY_REQUESTS", "busy", { code: "overloaded", retryAfterSeconds: 2 });
    expect(await answer(openAiErrorResponse(overloaded, "Chat"))).toMatchObject({ status: 429, body: { error: { type: "rate_limit_error", code: "overloaded" } } });
  });

  it("make a prompt too long for the model a 400 context_length_exceeded, a Trainyard field an OpenAI param, a body over the limit 413", async () => {
    expect(await answer(openAiErrorResponse(badInput("the prompt is 3000 tokens", { code: "too_large" }), "Chat"))).toMatchObject({ status: 400, body: { error: { code: "context_length_exceeded", param: null } } });
    expect(await answer(openAiErrorResponse(badInput("bad", { code: "bad_input", fields: [{ path: "topP", message: "x" }] }), "Chat"))).toMatchObject({ status: 400, body: { error: { code: "bad_input", param: "top_p" } } });
    expect(await answer(openAiErrorResponse(new BodyTooLarge(1024), "Chat"))).toMatchObject({ status: 413, body: { error: { type: "invalid_request_error", code: "request_too_large" } } });
  });

  it("name a tabular deployment's own routes", async () => {
    const wrongKind = new DomainError("NOT_FOUND", "tabular", { code: "wrong_kind", use: ["/api/deployments/d1/predict"] });
    const { status, body } = await answer(openAiErrorResponse(wrongKind, "Chat"));
    expect(status).toBe(404);
    expect(body).toMatchObject({ error: { code: "wrong_kind", message: expect.stringContaining("/api/deployments/d1/predict") } });
  });

  it("turn a Trainyard refusal into OpenAI's shape, keeping status and headers; an answer passes as it is", async () => {
    const refused = Response.json({ error: "A deployment answers only to one of its keys", code: "deployment_key_required", details: null }, { status: 401, headers: { "x-a": "1" } });
    const shaped = await asOpenAiRefusal(refused);
    expect(shaped.headers.get("x-a")).toBe("1");
    expect(await answer(shaped)).toMatchObject({ status: 401, body: { error: { message: "A deployment answers only to one of its keys", type: "invalid_request_error", param: null, code: "invalid_api_key" } } });
    const ok = Response.json({ object: "list" });
    expect(await asOpenAiRefusal(ok)).toBe(ok);
  });

  it("answer a bug with 500 server_error", async () => {
    const spied = console.error;
    console.error = () => {};
    try {
      expect(await answer(openAiErrorResponse(new Error("boom"), "Chat"))).toMatchObject({ status: 500, body: { error: { type: "server_error", code: "internal" } } });
    } finally {
      console.error = spied;
    }
  });
});
