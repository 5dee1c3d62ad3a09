/**
 * The OpenAPI 3.1 description of a deployment's public routes. Every schema is generated
 * from zod with z.toJSONSchema (JSON Schema 2020-12, the dialect OpenAPI 3.1 uses): the
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

const id = { name: "id", in: "path", required: true, description: "The deployment's id (its page and `trainyard deployments list` show it)", schema: { type: "string" } } as const;
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

/**
 * The URL the document names as its server: the public origin when one is set, else the
 * address the client reached (its Host header, which the request guard has already matched
 * against the names this server answers to). Never a client's X-Forwarded-Proto: only a
 * configured public origin says the server is reached over https.
 */
export function documentServerUrl(publicOrigin: string | undefined, host: string | null): string {
  return publicOrigin ?? `http://${host ?? "127.0.0.1"}`;
}

export function openApiDocument(serverUrl: string) {
  return {
    openapi: "3.1.0",
    info: {
      title: "Trainyard deployments",
      version: "1",
      description: "The public routes of a deployed model. Authenticate with a key of the deployment (`Authorization: Bearer <key>`; create one on its page or with `trainyard deployments keys create`), or as the signed-in owner or with an API token.",
    },
    servers: [{ url: serverUrl }],
    security: [{ deploymentKey: [] }],
    paths: {
      "/api/deployments/{id}/predict": {
        post: {
          summary: "Predict rows with a tabular deployment",
          parameters: [id],
          requestBody: { required: true, content: json("PredictRequest") },
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
      },
      "/api/deployments/{id}/generate": {
        post: {
          summary: "Generate text with a language-model deployment",
          parameters: [id],
          requestBody: { required: true, content: json("GenerateRequest") },
          responses: { "200": { description: "The whole generated text with token counts", content: json("GenerateAnswer") }, ...refusedAccess, ...generateRefusals, ...tooLarge },
        },
      },
      "/api/deployments/{id}/stream": {
        post: {
          summary: "Stream generated text as Server-Sent Events",
          description:
            "Each event is `event: <type>` and `data: <JSON>`, the data of each type as in `x-sse-data`: one `metadata`, `delta`s as text is decoded, `heartbeat`s, then exactly one `result` or `error`. Closing the connection cancels the generation.",
          parameters: [id],
          requestBody: { required: true, content: json("GenerateRequest") },
          responses: {
            "200": {
              description: "Server-Sent Events",
              content: {
                "text/event-stream": {
                  schema: { type: "string", description: "event: <type>\\ndata: <JSON>\\n\\n, repeated" },
                  "x-sse-data": Object.fromEntries(ZDeploymentStreamEvent.options.map((o) => [o.shape.type.value, ref(`StreamData_${o.shape.type.value}`)])),
                },
              },
            },
            ...refusedAccess,
            ...generateRefusals,
            ...tooLarge,
          },
        },
      },
      "/api/deployments/{id}/health": {
        get: {
          summary: "State and release of a deployment",
          parameters: [id],
          responses: { "200": { description: "ready / loading / stopped / …, the release it serves, uptime", content: json("Health") }, ...refusedAccess },
        },
      },
    },
    components: {
      securitySchemes: { deploymentKey: { type: "http", scheme: "bearer", description: "A key of this deployment, or an API token of the owner" } },
      schemas: Object.fromEntries(Object.entries(SCHEMAS).map(([name, schema]) => [name, jsonSchema(schema, name.endsWith("Request") ? "input" : "output")])),
    },
  };
}
