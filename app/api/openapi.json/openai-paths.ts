/**
 * The OpenAI-compatible routes of an LLM deployment (`/api/deployments/{id}/v1/…`) as OpenAPI
 * path objects for the shared document (`/api/openapi.json`). Bodies and answers are
 * generated from the zod schemas the routes check and answer with
 * (server/protocols/openai/request-schema.ts, answer-schemas.ts); refusals are OpenAI's
 * error shape; stream_options needs `stream: true`, as the route says.
 *
 * They are left out of a deployment's own document on purpose: there every body valid by
 * the document must be answered 2xx, and the test suite checks that with Schemathesis, whose
 * coverage phase then samples a full-length generation (up to 1024 tokens) for each boundary
 * value of each of their optional fields: measured, that run went from 35 s to past its 5-minute
 * limit. OpenAI clients need no generated client; the shared document has them.
 */
import { z } from "zod";
import { ZChatCompletion, ZChatCompletionChunk, ZModelList, ZOpenAiError, ZTextCompletion, ZTextCompletionChunk } from "@/server/protocols/openai/answer-schemas";
import { ZChatCompletionRequest, ZCompletionRequest } from "@/server/protocols/openai/request-schema";

type Schema = Record<string, unknown>;

function jsonSchema(schema: z.ZodType, io: "input" | "output"): Schema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" });
  return rest;
}

const json = (schema: Schema) => ({ "application/json": { schema } });
const ERROR = jsonSchema(ZOpenAiError, "output");
const refusal = (description: string) => ({ description, content: json(ERROR) });

const refusals = {
  "400": refusal("A body OpenAI's client would send but this route does not take: an unknown or unsupported parameter (tools, logprobs, n above 1, …) or value, named in error.param; max_tokens over the deployment's cap; a prompt longer than the model takes (context_length_exceeded)"),
  "401": refusal("No key, a key of another deployment or a revoked one (invalid_api_key)"),
  "404": refusal("No deployment with this id; a `model` other than the deployment's name (model_not_found); a tabular deployment (wrong_kind: it answers /predict)"),
  "413": refusal("The body is larger than 256 KiB"),
  "429": refusal("Too many requests at once; retry after the Retry-After header's seconds"),
  "503": refusal("The deployment is not ready (loading, stopped, failed, switching without room for both releases)"),
};

/** stream_options is for a stream only (the route refuses it otherwise). */
const STREAM_OPTIONS_NEED_STREAM = {
  if: { properties: { stream_options: { type: "object" } }, required: ["stream_options"] },
  then: { properties: { stream: { const: true } }, required: ["stream"] },
};

const BODIES = { chat: { ...jsonSchema(ZChatCompletionRequest, "input"), ...STREAM_OPTIONS_NEED_STREAM }, completions: { ...jsonSchema(ZCompletionRequest, "input"), ...STREAM_OPTIONS_NEED_STREAM } };

/**
 * One event of the stream as a client's SSE parser gives it ({event, data}): `data` is a
 * chunk's JSON (`contentSchema`, also `x-sse-data`), an error's after the stream started,
 * or the final `[DONE]`.
 */
const sseEventSchema = (chunk: Schema) => ({
  description: "One Server-Sent Event: `data: <chunk JSON>`; the last one `data: [DONE]`",
  type: "object",
  properties: {
    event: { type: "string" },
    data: {
      anyOf: [
        { type: "string", contentMediaType: "application/json", contentSchema: { anyOf: [chunk, ERROR] } },
        { const: "[DONE]", description: "The end of the stream" },
      ],
    },
    id: { type: "string" },
    retry: { type: "integer" },
  },
  required: ["data"],
});

function completionOperation(summary: string, body: Schema, answer: z.ZodType, chunk: z.ZodType, parameters: readonly unknown[]) {
  const chunkSchema = jsonSchema(chunk, "output");
  return {
    post: {
      summary,
      description:
        "OpenAI-compatible. `model` is the deployment's name. Sampling: temperature (default 1; 0 is greedy), top_p, seed (the same seed and body give the same text), stop (the text ends before it). With `stream: true` the answer is Server-Sent Events: `data: <chunk JSON>` blocks (the chunk schema is in `x-sse-data`), then `data: [DONE]`; closing the connection cancels the generation.",
      parameters,
      requestBody: { required: true, content: json(body) },
      responses: {
        "200": {
          description: "The completion, or its chunks as Server-Sent Events when `stream` is true",
          content: {
            ...json(jsonSchema(answer, "output")),
            "text/event-stream": { schema: sseEventSchema(chunkSchema), "x-sse-data": chunkSchema },
          },
        },
        ...refusals,
      },
    },
  };
}

/** The three routes under `base` (`/api/deployments/{id}`). */
export function openAiPaths(base: string, parameters: readonly unknown[]) {
  return {
    [`${base}/v1/models`]: {
      get: {
        summary: "OpenAI-compatible model list: the deployment's name as its one model",
        parameters,
        responses: { "200": { description: "One model: the deployment, named as requests must name it", content: json(jsonSchema(ZModelList, "output")) }, "401": refusals["401"], "404": refusals["404"] },
      },
    },
    [`${base}/v1/chat/completions`]: completionOperation("OpenAI-compatible chat completion", BODIES.chat, ZChatCompletion, ZChatCompletionChunk, parameters),
    [`${base}/v1/completions`]: completionOperation("OpenAI-compatible text completion (the prompt is one user message in the model's chat template)", BODIES.completions, ZTextCompletion, ZTextCompletionChunk, parameters),
  };
}
