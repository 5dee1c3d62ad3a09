import { describe, expect, it } from "vitest";
import { ZChatCompletion, ZChatCompletionChunk, ZModelList, ZTextCompletion, ZTextCompletionChunk } from "./answer-schemas";
import { chunk, completionResponse, modelList, newCompletion } from "./responses";

const answer = { text: "5", promptTokens: 10, generatedTokens: 2, finishReason: "deadline" as const, release: { id: "r1", number: 2, version: 1 } };
const at = new Date("2026-12-06T10:00:00Z");

describe("OpenAI answer shapes", () => {
  it("writes a chat completion with the release as system_fingerprint, a cut answer as length, and the usage", () => {
    const c = newCompletion("chat", "chat", at);
    expect(c.id).toMatch(/^chatcmpl-[0-9a-f]{32}$/);
    expect(completionResponse(c, answer)).toEqual({
      id: c.id,
      object: "chat.completion",
      created: 1796551200,
      model: "chat",
      system_fingerprint: "trainyard-release-2-version-1",
      choices: [{ index: 0, message: { role: "assistant", content: "5", refusal: null }, logprobs: null, finish_reason: "length" }],
      usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
    });
  });

  it("writes a text completion", () => {
    const c = newCompletion("completions", "chat", at);
    expect(c.id).toMatch(/^cmpl-/);
    expect(completionResponse(c, { ...answer, finishReason: "stop" })).toMatchObject({ object: "text_completion", choices: [{ index: 0, text: "5", logprobs: null, finish_reason: "stop" }] });
  });

  it("writes stream chunks: a chat delta, a usage chunk without choices, a completion chunk", () => {
    const c = newCompletion("chat", "chat", at);
    expect(chunk(c, answer.release, { role: "assistant", content: "", finish_reason: null })).toMatchObject({ object: "chat.completion.chunk", choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }] });
    expect(chunk(c, answer.release, { finish_reason: "stop" }).choices).toEqual([{ index: 0, delta: {}, logprobs: null, finish_reason: "stop" }]);
    expect(chunk(c, null, null, { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 })).toEqual({ id: c.id, object: "chat.completion.chunk", created: c.created, model: "chat", choices: [], usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } });
    expect(chunk(newCompletion("completions", "chat", at), null, { text: "a", finish_reason: null }).choices).toEqual([{ index: 0, text: "a", logprobs: null, finish_reason: null }]);
  });

  it("are what the documents describe (answer-schemas.ts)", () => {
    const chat = newCompletion("chat", "chat", at);
    const text = newCompletion("completions", "chat", at);
    ZChatCompletion.parse(completionResponse(chat, answer));
    ZTextCompletion.parse(completionResponse(text, answer));
    ZChatCompletionChunk.parse(chunk(chat, answer.release, { role: "assistant", content: "", finish_reason: null }, null));
    ZChatCompletionChunk.parse(chunk(chat, answer.release, null, { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 }));
    ZTextCompletionChunk.parse(chunk(text, null, { text: "a", finish_reason: "stop" }));
    ZModelList.parse(modelList({ id: "chat", created: at }));
  });

  it("lists the deployment's name as its one model", () => {
    expect(modelList({ id: "chat", created: at })).toEqual({ object: "list", data: [{ id: "chat", object: "model", created: 1796551200, owned_by: "trainyard" }] });
  });
});
