import { describe, expect, it } from "vitest";
import { isDomainError } from "@/server/errors";
import { parseOpenAiRequest, type OpenAiRoute } from "./request-schema";

const chat = { model: "chat", messages: [{ role: "user", content: "hi" }] };
const completion = { model: "chat", prompt: "hi" };

function refusal(route: OpenAiRoute, body: unknown) {
  try {
    parseOpenAiRequest(route, body);
  } catch (err) {
    if (isDomainError(err)) return { status: err.httpStatus, code: err.reason, param: err.details?.param, message: err.message };
    throw err;
  }
  throw new Error("accepted");
}

describe("an OpenAI request body", () => {
  it("takes what the official client sends, null read as absent", () => {
    const full = { ...chat, max_completion_tokens: 8, temperature: 0.2, top_p: 0.9, stop: ["\n"], seed: 3, n: 1, stream: true, stream_options: { include_usage: true }, user: "u1", presence_penalty: 0, logprobs: false };
    expect(parseOpenAiRequest("chat", full).body).toMatchObject(full);
    expect(parseOpenAiRequest("chat", { ...chat, temperature: null, stop: null, n: null, logprobs: null }).route).toBe("chat");
    expect(parseOpenAiRequest("completions", { ...completion, prompt: ["one"], max_tokens: 4, echo: false, best_of: 1, logprobs: null }).body).toMatchObject({ prompt: ["one"] });
    expect(parseOpenAiRequest("chat", { ...chat, messages: [{ role: "developer", content: [{ type: "text", text: "be brief" }] }, { role: "user", content: "hi" }] }).body).toMatchObject({ messages: [{ role: "developer" }, { role: "user" }] });
  });

  it("refuses an unknown or unsupported field by its name", () => {
    expect(refusal("chat", { ...chat, tools: [] })).toMatchObject({ status: 400, code: "unsupported_parameter", param: "tools", message: expect.stringContaining("tool calling is not supported") });
    expect(refusal("completions", { ...completion, frobnicate: 1 })).toMatchObject({ param: "frobnicate", message: expect.stringMatching(/^Unrecognized request argument supplied: frobnicate/) });
    expect(refusal("chat", { ...chat, messages: [{ role: "user", content: "hi", name: "bob" }] })).toMatchObject({ param: "messages[0].name" });
  });

  it("refuses the values it cannot honour: n above 1, logprobs, penalties, echo, tool messages, token prompts", () => {
    expect(refusal("chat", { ...chat, n: 2 })).toMatchObject({ status: 400, code: "unsupported_value", param: "n", message: expect.stringContaining("only 1 is supported") });
    expect(refusal("chat", { ...chat, logprobs: true })).toMatchObject({ param: "logprobs" });
    expect(refusal("chat", { ...chat, frequency_penalty: 0.5 })).toMatchObject({ param: "frequency_penalty" });
    expect(refusal("completions", { ...completion, echo: true })).toMatchObject({ param: "echo" });
    expect(refusal("completions", { ...completion, logprobs: 2 })).toMatchObject({ param: "logprobs" });
    expect(refusal("chat", { ...chat, messages: [{ role: "tool", content: "x" }] })).toMatchObject({ param: "messages[0].role" });
    expect(refusal("completions", { ...completion, prompt: [1, 2, 3] })).toMatchObject({ param: "prompt" });
    expect(refusal("completions", { ...completion, prompt: ["a", "b"] })).toMatchObject({ param: "prompt" });
  });

  it("checks ranges and types, and stream_options only with a stream", () => {
    expect(refusal("chat", { ...chat, temperature: 3 })).toMatchObject({ code: "invalid_value", param: "temperature" });
    expect(refusal("chat", { ...chat, max_tokens: 0 })).toMatchObject({ param: "max_tokens" });
    expect(refusal("chat", { ...chat, stop: ["a", "b", "c", "d", "e"] })).toMatchObject({ param: "stop" });
    expect(refusal("chat", { ...chat, seed: 1.5 })).toMatchObject({ param: "seed" });
    expect(refusal("chat", { ...chat, stream_options: { include_usage: true } })).toMatchObject({ param: "stream_options" });
    expect(refusal("chat", { messages: chat.messages })).toMatchObject({ param: "model", message: expect.stringContaining("the deployment's name") });
    expect(refusal("chat", [chat])).toMatchObject({ status: 400, message: "The body must be a JSON object." });
  });
});
