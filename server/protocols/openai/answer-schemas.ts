/**
 * The shapes the OpenAI-compatible routes answer with, as zod: responses.ts builds them
 * (typed by these), the OpenAPI documents describe them (generated from these), and the
 * unit tests parse the builders' output with them, so the three cannot drift apart. They
 * are the subset of OpenAI's shapes these routes fill (one choice, no logprobs, no tools).
 */
import { z } from "zod";

const ZFinish = z.enum(["stop", "length"]).describe("stop: the model ended, or a stop sequence came (the text ends before it); length: max_tokens or the request deadline cut it");

export const ZUsage = z.strictObject({
  prompt_tokens: z.number().int().nonnegative(),
  completion_tokens: z.number().int().nonnegative(),
  total_tokens: z.number().int().nonnegative(),
});

const common = {
  id: z.string(),
  created: z.number().int().describe("Unix seconds when the request came"),
  model: z.string().describe("The deployment's name, as the request named it"),
  system_fingerprint: z.string().describe("The release that answered: trainyard-release-<n>-version-<v>"),
};

export const ZChatCompletion = z.strictObject({
  ...common,
  object: z.literal("chat.completion"),
  choices: z.array(
    z.strictObject({
      index: z.literal(0),
      message: z.strictObject({ role: z.literal("assistant"), content: z.string(), refusal: z.null() }),
      logprobs: z.null(),
      finish_reason: ZFinish,
    }),
  ),
  usage: ZUsage,
});

export const ZTextCompletion = z.strictObject({
  ...common,
  object: z.literal("text_completion"),
  choices: z.array(z.strictObject({ index: z.literal(0), text: z.string(), logprobs: z.null(), finish_reason: ZFinish })),
  usage: ZUsage,
});

/** Every chunk but a usage chunk has one choice; `usage` is null on them when include_usage is set. */
const chunkCommon = { ...common, system_fingerprint: common.system_fingerprint.optional(), usage: ZUsage.nullable().optional() };

export const ZChatCompletionChunk = z.strictObject({
  ...chunkCommon,
  object: z.literal("chat.completion.chunk"),
  choices: z.array(
    z.strictObject({
      index: z.literal(0),
      delta: z.strictObject({ role: z.literal("assistant").optional(), content: z.string().optional() }),
      logprobs: z.null(),
      finish_reason: ZFinish.nullable(),
    }),
  ),
});

export const ZTextCompletionChunk = z.strictObject({
  ...chunkCommon,
  object: z.literal("text_completion"),
  choices: z.array(z.strictObject({ index: z.literal(0), text: z.string(), logprobs: z.null(), finish_reason: ZFinish.nullable() })),
});

export const ZModelList = z.strictObject({
  object: z.literal("list"),
  data: z.array(z.strictObject({ id: z.string().describe("The deployment's name: send it as `model`"), object: z.literal("model"), created: z.number().int(), owned_by: z.string() })),
});

export const ZOpenAiError = z.strictObject({
  error: z.strictObject({
    message: z.string(),
    type: z.string().describe("invalid_request_error (4xx), rate_limit_error (429) or server_error (5xx)"),
    param: z.string().nullable().describe("The request parameter at fault (`tools`, `messages[0].role`, `max_tokens`), when one is"),
    code: z.string().nullable().describe("unsupported_parameter, unsupported_value, invalid_value, model_not_found, invalid_api_key, context_length_exceeded, not_ready, overloaded, …"),
  }),
});
