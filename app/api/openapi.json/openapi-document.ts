/**
 * The OpenAPI 3.1 descriptions of the deployments' public routes: one for every deployment
 * (`/api/openapi.json`, a path parameter, rows of any columns), and one per deployment
 * (`/api/deployments/<id>/openapi.json`: only its kind's routes, its rows typed by the
 * feature schema of the version it serves now, its limits). Every shared schema is
 * generated from zod with z.toJSONSchema (JSON Schema 2020-12, OpenAPI 3.1's dialect): the
 * shapes of every route, and its refusal envelope, are the contracts' own
 * (contracts/deployments/serving.ts).
 */
import { z } from "zod";
import {
  ZDeploymentGenerateRequest,
  ZDeploymentHealth,
  ZDeploymentPredictResponse,
  ZDeploymentGenerateResponse,
  ZDeploymentStreamEvent,
  ZDeploymentRefusal,
  ZServePredictRequest,
  type DeploymentStreamEvent,
} from "@/contracts/deployments/serving";
import type { DeploymentInterface } from "@/server/deployments/public-interface";
import { openAiPaths } from "./openai-paths";
import { generateRequestSchema, predictRequestSchema } from "./request-schemas";
import { tabularProtocolPaths } from "./tabular-protocol-paths";

/**
 * On the wire each stream event is `event: <type>` and `data: <the event without its type, as
 * JSON>` (contracts/deployments/stream-events.ts): the document gives each type's data.
 */
type StreamType = DeploymentStreamEvent["type"];
const dataOf = (o: (typeof ZDeploymentStreamEvent.options)[number]): z.ZodType => {
  const { type: _type, ...shape } = o.shape;
  return z.strictObject(shape);
};
const STREAM_DATA = Object.fromEntries(ZDeploymentStreamEvent.options.map((o) => [`StreamData_${o.shape.type.value}`, dataOf(o)])) as Record<`StreamData_${StreamType}`, z.ZodType>;

const SCHEMAS = {
  PredictRequest: ZServePredictRequest,
  PredictAnswer: ZDeploymentPredictResponse,
  GenerateRequest: ZDeploymentGenerateRequest,
  GenerateAnswer: ZDeploymentGenerateResponse,
  Health: ZDeploymentHealth,
  Refusal: ZDeploymentRefusal,
  ...STREAM_DATA,
};
type SchemaName = keyof typeof SCHEMAS;

function jsonSchema(schema: z.ZodType, io: "input" | "output") {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" });
  return rest;
}

const ref = (name: SchemaName) => ({ $ref: `#/components/schemas/${name}` });
const json = (name: SchemaName) => ({ "application/json": { schema: ref(name) } });
const refusal = (description: string) => ({ description, content: json("Refusal") });

const idParameter = { name: "id", in: "path", required: true, description: "The deployment's id (its page and `trainyard deployments list` show it)", schema: { type: "string" } } as const;
const generateRefusals = {
  "400": refusal("Neither or both of prompt and messages, or a prompt longer than the deployment accepts"),
  "404": refusal("No deployment with this id, or a tabular one: it answers /predict (code wrong_kind)"),
  "429": refusal("Too many requests at once; retry after the Retry-After header's seconds"),
  "503": refusal("The deployment is not ready (loading, stopped, failed)"),
};
const refusedAccess = {
  "401": refusal("No key, a key of another deployment or a revoked one, and no signed-in owner or API token"),
  "404": refusal("No deployment with this id (a signed-in owner or an API token asked; a key of another deployment gets 401)"),
};
const tooLarge = { "413": refusal("The body is larger than the deployment accepts (JSON bodies: 256 KiB)") };

/** A request body given inline (a deployment's own typed schema) or by a shared schema's name. */
type Body = SchemaName | Record<string, unknown>;
const body = (b: Body) => (typeof b === "string" ? json(b) : { "application/json": { schema: b } });

const predictOperation = (request: Body, parameters: readonly unknown[]) => ({
  post: {
    summary: "Predict rows with a tabular deployment",
    parameters,
    requestBody: { required: true, content: body(request) },
    responses: {
      "200": { description: "A prediction (and class probabilities, for a classifier) per row", content: json("PredictAnswer") },
      "400": refusal("A row does not match the model's features: details.fields names each problem (`rows[0].bill_length_mm`)"),
      ...refusedAccess,
      "404": refusal("No deployment with this id, or a language-model one: it answers /generate and /stream (code wrong_kind)"),
      ...tooLarge,
      "429": refusal("Too many requests at once; retry after the Retry-After header's seconds"),
      "503": refusal("The deployment is not ready (loading, stopped, failed)"),
      "504": refusal("The prediction did not finish within the request deadline"),
    },
  },
});

const generateOperation = (request: Body, parameters: readonly unknown[]) => ({
  post: {
    summary: "Generate text with a language-model deployment",
    parameters,
    requestBody: { required: true, content: body(request) },
    responses: { "200": { description: "The whole generated text with token counts", content: json("GenerateAnswer") }, ...refusedAccess, ...generateRefusals, ...tooLarge },
  },
});

/**
 * One event of the stream as a client's SSE parser gives it ({event, data}), which is what
 * the schema of a `text/event-stream` describes: the event's name, and its data, a JSON text
 * of that type's shape (`contentSchema`; the same as `x-sse-data`).
 */
const sseEventSchema = {
  description: "One Server-Sent Event: `event: <type>`, then `data: <JSON>`",
  oneOf: ZDeploymentStreamEvent.options.map((o) => ({
    type: "object",
    properties: {
      event: { const: o.shape.type.value },
      data: { type: "string", contentMediaType: "application/json", contentSchema: ref(`StreamData_${o.shape.type.value}`) },
      id: { type: "string" },
      retry: { type: "integer" },
    },
    required: ["event", "data"],
  })),
};

const streamOperation = (request: Body, parameters: readonly unknown[]) => ({
  post: {
    summary: "Stream generated text as Server-Sent Events",
    description:
      "Each event is `event: <type>` and `data: <JSON>`, the data of each type as in `x-sse-data`: one `metadata`, `delta`s as text is decoded, `heartbeat`s, then exactly one `result` or `error`. Closing the connection cancels the generation.",
    parameters,
    requestBody: { required: true, content: body(request) },
    responses: {
      "200": {
        description: "Server-Sent Events",
        content: {
          "text/event-stream": {
            schema: sseEventSchema,
            "x-sse-data": Object.fromEntries(ZDeploymentStreamEvent.options.map((o) => [o.shape.type.value, ref(`StreamData_${o.shape.type.value}`)])),
          },
        },
      },
      ...refusedAccess,
      ...generateRefusals,
      ...tooLarge,
    },
  },
});

const healthOperation = (parameters: readonly unknown[]) => ({
  get: {
    summary: "State and release of a deployment",
    parameters,
    responses: {
      "200": { description: "ready / loading / stopped / …, the release it serves, uptime", content: json("Health") },
      ...refusedAccess,
      "503": { description: "A resident deployment whose computer cannot be reached now (state unreachable); retry after the Retry-After header's seconds", content: json("Health") },
    },
  },
});

/**
 * The URL the document names as its server: the public origin when one is set, else the
 * address the client reached (its Host header, which the request guard has already matched
 * against the names this server answers to). Never a client's X-Forwarded-Proto: only a
 * configured public origin says the server is reached over https.
 */
export function documentServerUrl(publicOrigin: string | undefined, host: string | null): string {
  return publicOrigin ?? `http://${host ?? "127.0.0.1"}`;
}

const AUTH_WORDS =
  "Authenticate with a key of the deployment (`Authorization: Bearer <key>`; create one on its page or with `trainyard deployments keys create`), or as the signed-in owner or with an API token.";

function document<P extends Record<string, unknown>>(serverUrl: string, info: { title: string; description: string }, paths: P, names: readonly SchemaName[]) {
  return {
    openapi: "3.1.0",
    info: { ...info, version: "1" },
    servers: [{ url: serverUrl }],
    security: [{ deploymentKey: [] }],
    paths,
    components: {
      securitySchemes: { deploymentKey: { type: "http", scheme: "bearer", description: "A key of this deployment, or an API token of the owner" } },
      schemas: Object.fromEntries(names.map((name) => [name, jsonSchema(SCHEMAS[name], name.endsWith("Request") ? "input" : "output")])),
    },
  };
}

export function openApiDocument(serverUrl: string) {
  const p = [idParameter] as const;
  return document(
    serverUrl,
    { title: "Trainyard deployments", description: `The public routes of a deployed model. ${AUTH_WORDS} Each deployment also describes its own routes, its rows typed by its model's features, at /api/deployments/{id}/openapi.json.` },
    {
      "/api/deployments/{id}/predict": predictOperation("PredictRequest", p),
      "/api/deployments/{id}/generate": generateOperation("GenerateRequest", p),
      "/api/deployments/{id}/stream": streamOperation("GenerateRequest", p),
      "/api/deployments/{id}/health": healthOperation(p),
      ...tabularProtocolPaths(p),
      ...openAiPaths("/api/deployments/{id}", p),
    },
    Object.keys(SCHEMAS) as SchemaName[],
  );
}

/** One deployment's routes as they are now: a switch to a version with other features changes its document. */
export function deploymentDocument(serverUrl: string, d: DeploymentInterface) {
  const base = `/api/deployments/${encodeURIComponent(d.id)}`;
  const info = {
    title: `Trainyard deployment "${d.name}"`,
    description: `The public routes of the deployment "${d.name}", serving version ${d.release.version} (release ${d.release.number}). ${AUTH_WORDS}`,
  };
  const shared: SchemaName[] = ["Health", "Refusal"];
  if (d.kind === "tabular") {
    return document(serverUrl, info, { [`${base}/predict`]: predictOperation(predictRequestSchema(d.features, d.maxRows), []), [`${base}/health`]: healthOperation([]) }, [...shared, "PredictAnswer"]);
  }
  const request = generateRequestSchema(d.maxNewTokens);
  return document(
    serverUrl,
    info,
    { [`${base}/generate`]: generateOperation(request, []), [`${base}/stream`]: streamOperation(request, []), [`${base}/health`]: healthOperation([]) },
    [...shared, "GenerateAnswer", ...(Object.keys(STREAM_DATA) as SchemaName[])],
  );
}
