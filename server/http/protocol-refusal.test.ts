import { describe, expect, it } from "vitest";
import { protocolRefusalBody } from "./protocol-refusal";

const wrongKey = { status: 401, code: "deployment_key_refused", message: "The key is not valid for this deployment." };

describe("a guard refusal on a protocol's path", () => {
  it("is OpenAI's error shape under a deployment's /v1/", () => {
    expect(protocolRefusalBody("/api/deployments/d1/v1/chat/completions?x=1", wrongKey)).toEqual({ error: { message: wrongKey.message, type: "invalid_request_error", param: null, code: "invalid_api_key" } });
    expect(protocolRefusalBody("/api/deployments/d1/v1/models", { status: 413, code: "too_large", message: "big" })).toMatchObject({ error: { code: "too_large" } });
  });

  it("is left to Trainyard's envelope elsewhere, and on a path the guard could not read", () => {
    expect(protocolRefusalBody("/api/deployments/d1/generate", wrongKey)).toBeNull();
    expect(protocolRefusalBody("/api/deployments/d1/%2e%2e/v1/models", wrongKey)).toBeNull();
  });
});
