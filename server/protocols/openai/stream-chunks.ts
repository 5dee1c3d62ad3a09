/**
 * A deployment's stream events (ZDeploymentStreamEvent) written as OpenAI's stream:
 * `data: <chunk JSON>` blocks ending with `data: [DONE]`. Chat: a first chunk with the
 * assistant role, one per delta, the finish reason on a last chunk with an empty delta;
 * completions: one chunk of text per delta and the finish reason on a last empty one. With
 * `stream_options.include_usage` every chunk has `usage: null` and a final chunk with empty
 * `choices` carries the usage, as OpenAI sends it. A heartbeat is an SSE comment (clients
 * skip it; proxies see traffic). An error after the stream started is a `data: {"error": …}`
 * block, which the official clients raise as an APIError, then [DONE].
 */
import type { DeploymentStreamEvent } from "@/contracts/deployments/serving";
import { errorType } from "./errors";
import { chunk, finishReason, usageOf, type Completion } from "./responses";

const data = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`;
export const DONE = "data: [DONE]\n\n";
export const HEARTBEAT = ": keep-alive\n\n";

/** A stateful writer for one request's stream (it remembers the release the metadata named). */
export function openAiStreamWriter(c: Completion, opts: { includeUsage: boolean }): (e: DeploymentStreamEvent) => string {
  let release: Extract<DeploymentStreamEvent, { type: "metadata" }>["release"] | null = null;
  const usageSlot = opts.includeUsage ? null : undefined;
  return (e) => {
    switch (e.type) {
      case "metadata":
        release = e.release;
        return c.route === "chat" ? data(chunk(c, release, { role: "assistant", content: "", finish_reason: null }, usageSlot)) : "";
      case "delta":
        return e.text ? data(chunk(c, release, c.route === "chat" ? { content: e.text, finish_reason: null } : { text: e.text, finish_reason: null }, usageSlot)) : "";
      case "heartbeat":
        return HEARTBEAT;
      case "result": {
        const last = data(chunk(c, release, { finish_reason: finishReason(e.finishReason) }, usageSlot));
        return last + (opts.includeUsage ? data(chunk(c, release, null, usageOf(e))) : "") + DONE;
      }
      case "error":
        return data({ error: { message: e.message, type: errorType(500), param: null, code: e.code } }) + DONE;
    }
  };
}
