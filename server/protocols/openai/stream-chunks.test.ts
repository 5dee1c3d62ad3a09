import { describe, expect, it } from "vitest";
import type { DeploymentStreamEvent } from "@/contracts/deployments/serving";
import { newCompletion } from "./responses";
import { DONE, HEARTBEAT, openAiStreamWriter } from "./stream-chunks";

const release = { id: "r1", number: 1, version: 1 };
const events: DeploymentStreamEvent[] = [
  { type: "metadata", release, model: "Math helper v1" },
  { type: "delta", text: "The " },
  { type: "heartbeat" },
  { type: "delta", text: "answer" },
  { type: "result", text: "The answer", promptTokens: 9, generatedTokens: 3, finishReason: "length" },
];

/** The `data:` payloads of a written stream, JSON parsed (but [DONE]), and its comments. */
function read(wire: string) {
  const blocks = wire.split("\n\n").filter(Boolean);
  return blocks.map((b) => (b.startsWith(":") ? b : b === "data: [DONE]" ? "[DONE]" : (JSON.parse(b.slice("data: ".length)) as Record<string, unknown>)));
}

describe("a deployment's stream as OpenAI's", () => {
  it("chat: the role first, one chunk per delta, the finish reason last, usage after it when asked, then [DONE]", () => {
    const write = openAiStreamWriter(newCompletion("chat", "chat"), { includeUsage: true });
    const out = read(events.map(write).join(""));
    expect(out.map((o) => (typeof o === "string" ? o : (o.choices as unknown[]).length ? (o.choices as { delta: unknown; finish_reason: unknown }[])[0] : { usage: o.usage }))).toEqual([
      { index: 0, delta: { role: "assistant", content: "" }, logprobs: null, finish_reason: null },
      { index: 0, delta: { content: "The " }, logprobs: null, finish_reason: null },
      HEARTBEAT.trim(),
      { index: 0, delta: { content: "answer" }, logprobs: null, finish_reason: null },
      { index: 0, delta: {}, logprobs: null, finish_reason: "length" },
      { usage: { prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 } },
      "[DONE]",
    ]);
    // With include_usage every other chunk says usage: null, as OpenAI's do.
    expect((out[1] as { usage: unknown }).usage).toBeNull();
    expect((out[1] as { system_fingerprint: unknown }).system_fingerprint).toBe("trainyard-release-1-version-1");
  });

  it("completions: text chunks, no role chunk, no usage unless asked", () => {
    const write = openAiStreamWriter(newCompletion("completions", "chat"), { includeUsage: false });
    const wire = events.map(write).join("");
    expect(wire.endsWith(DONE)).toBe(true);
    const chunks = read(wire).filter((o): o is Record<string, unknown> => typeof o !== "string");
    expect(chunks.map((c) => (c.choices as { text: string; finish_reason: unknown }[])[0])).toEqual([
      { index: 0, text: "The ", logprobs: null, finish_reason: null },
      { index: 0, text: "answer", logprobs: null, finish_reason: null },
      { index: 0, text: "", logprobs: null, finish_reason: "length" },
    ]);
    expect(chunks.every((c) => !("usage" in c) && c.object === "text_completion")).toBe(true);
  });

  it("an error after the stream started is an error block the clients raise, then [DONE]", () => {
    const write = openAiStreamWriter(newCompletion("chat", "chat"), { includeUsage: false });
    const wire = write({ type: "error", code: "release_changed", message: "send it again" });
    expect(read(wire)).toEqual([{ error: { message: "send it again", type: "server_error", param: null, code: "release_changed" } }, "[DONE]"]);
  });
});
