/**
 * OpenAI's answer shapes, built from a deployment's generate answer: a chat completion, a
 * text completion, their stream chunks, the usage, and the model list. The release that
 * answered is the `system_fingerprint` (OpenAI's "backend configuration" field): a switch
 * changes it. A generation cut by the request deadline ends with finish_reason "length"
 * (OpenAI has no other word for a cut answer).
 */
import { randomUUID } from "node:crypto";
import type { z } from "zod";
import type { DeploymentGenerateResponse } from "@/contracts/deployments/serving";
import type { ZChatCompletion, ZChatCompletionChunk, ZModelList, ZTextCompletion, ZTextCompletionChunk, ZUsage } from "./answer-schemas";
import type { OpenAiRoute } from "./request-schema";

type Finish = DeploymentGenerateResponse["finishReason"];
type Release = DeploymentGenerateResponse["release"];

/** What every answer to one request shares. */
export interface Completion {
  route: OpenAiRoute;
  id: string;
  /** Unix seconds, when the request came. */
  created: number;
  /** The model the request named (the deployment's name). */
  model: string;
}

export function newCompletion(route: OpenAiRoute, model: string, now = new Date()): Completion {
  return { route, id: `${route === "chat" ? "chatcmpl" : "cmpl"}-${randomUUID().replace(/-/g, "")}`, created: Math.floor(now.getTime() / 1000), model };
}

export const finishReason = (f: Finish): "stop" | "length" => (f === "stop" ? "stop" : "length");

export const systemFingerprint = (r: Pick<Release, "number" | "version">) => `trainyard-release-${r.number}-version-${r.version}`;

export const usageOf = (a: { promptTokens: number; generatedTokens: number }): z.infer<typeof ZUsage> => ({
  prompt_tokens: a.promptTokens,
  completion_tokens: a.generatedTokens,
  total_tokens: a.promptTokens + a.generatedTokens,
});

/** The whole answer of a request without `stream`. */
export function completionResponse(c: Completion, a: DeploymentGenerateResponse): z.infer<typeof ZChatCompletion> | z.infer<typeof ZTextCompletion> {
  const finish_reason = finishReason(a.finishReason);
  const head = { id: c.id, created: c.created, model: c.model, system_fingerprint: systemFingerprint(a.release), usage: usageOf(a) };
  return c.route === "chat"
    ? { ...head, object: "chat.completion", choices: [{ index: 0, message: { role: "assistant", content: a.text, refusal: null }, logprobs: null, finish_reason }] }
    : { ...head, object: "text_completion", choices: [{ index: 0, text: a.text, logprobs: null, finish_reason }] };
}

/** One choice of a stream chunk: a chat delta (role on the first) or completion text; the finish reason on the last. */
export type ChunkChoice = { role?: "assistant"; content?: string; text?: string; finish_reason: "stop" | "length" | null };

export function chunk(c: Completion, release: Release | null, choice: ChunkChoice | null, usage?: z.infer<typeof ZUsage> | null): z.infer<typeof ZChatCompletionChunk> | z.infer<typeof ZTextCompletionChunk> {
  const head = { id: c.id, created: c.created, model: c.model, ...(release ? { system_fingerprint: systemFingerprint(release) } : {}), ...(usage !== undefined ? { usage } : {}) };
  if (c.route === "chat") {
    const delta = { ...(choice?.role ? { role: choice.role } : {}), ...(choice?.content !== undefined ? { content: choice.content } : {}) };
    return { ...head, object: "chat.completion.chunk", choices: choice ? [{ index: 0, delta, logprobs: null, finish_reason: choice.finish_reason }] : [] };
  }
  return { ...head, object: "text_completion", choices: choice ? [{ index: 0, text: choice.text ?? "", logprobs: null, finish_reason: choice.finish_reason }] : [] };
}

/** GET /v1/models: the one model a deployment serves, named by the deployment. */
export function modelList(model: { id: string; created: Date }): z.infer<typeof ZModelList> {
  return { object: "list", data: [{ id: model.id, object: "model", created: Math.floor(model.created.getTime() / 1000), owned_by: "trainyard" }] };
}
