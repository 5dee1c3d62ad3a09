import { describe, expect, it } from "vitest";
import { isDomainError } from "@/server/errors";
import { parseOpenAiRequest, type OpenAiRoute } from "./request-schema";
import { DEFAULT_TEMPERATURE, generateRequestOf } from "./to-generate";

const map = (route: OpenAiRoute, body: Record<string, unknown>, maxNewTokens = 64) => generateRequestOf(parseOpenAiRequest(route, body), { name: "chat" }, { maxNewTokens });

function refusal(route: OpenAiRoute, body: Record<string, unknown>) {
  try {
    map(route, body);
  } catch (err) {
    if (isDomainError(err)) return { status: err.httpStatus, code: err.reason, param: err.details?.param };
    throw err;
  }
  throw new Error("accepted");
}

describe("an OpenAI request as a generate request", () => {
  it("maps chat messages (developer as system, text parts joined), tokens and sampling", () => {
    const body = { model: "chat", messages: [{ role: "developer", content: [{ type: "text", text: "Be " }, { type: "text", text: "brief." }] }, { role: "user", content: "2+3?" }], max_completion_tokens: 8, max_tokens: 99, temperature: 0, top_p: 0.5, seed: 7, stop: "\n" };
    expect(map("chat", body)).toEqual({
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "2+3?" },
      ],
      maxNewTokens: 8,
      temperature: 0,
      topP: 0.5,
      seed: 7,
      stop: ["\n"],
    });
  });

  it("maps a completion's prompt to Trainyard's prompt, sampling at OpenAI's default temperature when none is named", () => {
    expect(map("completions", { model: "chat", prompt: ["Say hi"], max_tokens: 4, stop: [] })).toEqual({ prompt: "Say hi", maxNewTokens: 4, temperature: DEFAULT_TEMPERATURE });
    expect(DEFAULT_TEMPERATURE).toBe(1);
  });

  it("refuses another model with 404 model_not_found, and more tokens than the deployment gives by the parameter sent", () => {
    expect(refusal("chat", { model: "gpt-4o", messages: [{ role: "user", content: "hi" }] })).toEqual({ status: 404, code: "model_not_found", param: "model" });
    expect(refusal("chat", { model: "chat", messages: [{ role: "user", content: "hi" }], max_completion_tokens: 65 })).toEqual({ status: 400, code: "invalid_value", param: "max_completion_tokens" });
    expect(refusal("completions", { model: "chat", prompt: "hi", max_tokens: 65 })).toEqual({ status: 400, code: "invalid_value", param: "max_tokens" });
  });
});
