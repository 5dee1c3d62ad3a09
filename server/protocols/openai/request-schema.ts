/**
 * The bodies of POST /v1/chat/completions and /v1/completions that an LLM deployment
 * takes: OpenAI's fields that it honours, the ones it can only take at their no-op value
 * (n 1, penalties 0, logprobs off, echo off, best_of 1), `null` read as absent as OpenAI
 * reads it. Strict: any other field (tools, response_format, logit_bias, …) is refused by
 * name rather than ignored, so a client never believes it got what it asked for.
 */
import { z } from "zod";
import { MAX_STOP_SEQUENCES } from "@/contracts/deployments/serving";
import { fieldPath } from "@/server/deployments/generate-request";
import { badInput, type DomainError } from "@/server/errors";

export type OpenAiRoute = "chat" | "completions";

const only = <T extends string | number | boolean>(value: T, what: string) => z.literal(value, `${what}: only ${JSON.stringify(value)} is supported`).nullish();

const ZStop = z.union([z.string().min(1), z.array(z.string().min(1)).max(MAX_STOP_SEQUENCES)], `a string or a list of at most ${MAX_STOP_SEQUENCES} non-empty strings`);

const common = {
  model: z.string("the model is required: the deployment's name, as GET /v1/models lists it").min(1),
  max_tokens: z.number().int().positive().nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  stop: ZStop.nullish(),
  seed: z.number().int().nullish(),
  stream: z.boolean().nullish(),
  stream_options: z.strictObject({ include_usage: z.boolean().nullish() }).nullish(),
  /** An end user's id for abuse tracking at OpenAI: taken and not kept. */
  user: z.string().nullish(),
  n: only(1, "n (choices per request)"),
  presence_penalty: only(0, "presence_penalty"),
  frequency_penalty: only(0, "frequency_penalty"),
};

const ZTextPart = z.strictObject({ type: z.literal("text", "text parts only"), text: z.string() });
const ZMessage = z.strictObject({
  role: z.enum(["system", "developer", "user", "assistant"], "system, developer, user or assistant (no tool messages)"),
  content: z.union([z.string(), z.array(ZTextPart).min(1)], "a string, or a list of text parts"),
});

/** stream_options is for a stream only, as OpenAI says. */
const streamOptionsNeedStream = (b: { stream?: boolean | null; stream_options?: unknown }, ctx: z.RefinementCtx) => {
  if (b.stream_options != null && b.stream !== true) ctx.addIssue({ code: "custom", path: ["stream_options"], message: "stream_options is only allowed with stream: true" });
};

export const ZChatCompletionRequest = z
  .strictObject({
    ...common,
    messages: z.array(ZMessage).min(1),
    max_completion_tokens: z.number().int().positive().nullish(),
    logprobs: only(false, "logprobs"),
  })
  .superRefine(streamOptionsNeedStream);
export type ChatCompletionRequest = z.infer<typeof ZChatCompletionRequest>;

export const ZCompletionRequest = z
  .strictObject({
    ...common,
    prompt: z.union([z.string().min(1), z.array(z.string().min(1)).length(1)], "one prompt: a non-empty string (or a list of one); token ids are not supported"),
    echo: only(false, "echo"),
    best_of: only(1, "best_of"),
    logprobs: z.null("logprobs are not supported").optional(),
    suffix: z.null("suffix is not supported").optional(),
  })
  .superRefine(streamOptionsNeedStream);
export type CompletionRequest = z.infer<typeof ZCompletionRequest>;

export type OpenAiRequest = { route: "chat"; body: ChatCompletionRequest } | { route: "completions"; body: CompletionRequest };

/** Why a field OpenAI knows is refused here, in words; anything else is simply unknown. */
const UNSUPPORTED: Record<string, string> = {
  tools: "tool calling is not supported",
  tool_choice: "tool calling is not supported",
  parallel_tool_calls: "tool calling is not supported",
  functions: "function calling is not supported",
  function_call: "function calling is not supported",
  response_format: "structured output (response_format) is not supported",
  top_logprobs: "logprobs are not supported",
  logit_bias: "logit_bias is not supported",
};

/** The first problem of a body as a 400 naming its parameter (`messages[0].role`, `tools`), as OpenAI reports one. */
function refusal(error: z.ZodError): DomainError {
  const issue = error.issues[0]!;
  if (issue.code === "unrecognized_keys") {
    const param = fieldPath([...issue.path, issue.keys[0]!]);
    const why = UNSUPPORTED[issue.keys[0]!] ?? "this deployment's OpenAI-compatible routes do not take it";
    const more = issue.keys.length > 1 ? ` (also: ${issue.keys.slice(1).join(", ")})` : "";
    return badInput(`Unrecognized request argument supplied: ${param}${more}: ${why}.`, { code: "unsupported_parameter", param });
  }
  const param = fieldPath(issue.path) || null;
  const code = issue.code === "invalid_value" ? "unsupported_value" : "invalid_value";
  return badInput(`Invalid value for ${param ?? "the body"}: ${issue.message}.`, { code, param });
}

/** The request, or BAD_INPUT naming its first bad parameter. */
export function parseOpenAiRequest(route: OpenAiRoute, body: unknown): OpenAiRequest {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw badInput("The body must be a JSON object.", { code: "invalid_value", param: null });
  if (route === "chat") {
    const parsed = ZChatCompletionRequest.safeParse(body);
    if (!parsed.success) throw refusal(parsed.error);
    return { route, body: parsed.data };
  }
  const parsed = ZCompletionRequest.safeParse(body);
  if (!parsed.success) throw refusal(parsed.error);
  return { route, body: parsed.data };
}
