/**
 * The OpenAPI path objects of a tabular deployment's ecosystem protocols (issue 34), for the
 * every-deployment document: MLflow's scoring protocol (`/invocations`, `/ping`) and the Open
 * Inference Protocol v2 (`/v2/models/{name}/infer`, `/v2/health/ready`). Their schemas are
 * generated from the zod schemas the routes check and answer with (server/protocols), inline;
 * refusals that come before a route (a key of another deployment: 401) are Trainyard's own
 * envelope, `Refusal`.
 */
import { z } from "zod";
import { ZScoringAnswer } from "@/server/protocols/mlflow/scoring-answer";
import { ZScoringRequest } from "@/server/protocols/mlflow/scoring-body";
import { ZMlflowError } from "@/server/protocols/mlflow/scoring-error";
import { ZInferResponse } from "@/server/protocols/open-inference/infer-answer";
import { ZInferError } from "@/server/protocols/open-inference/infer-error";
import { ZInferRequest } from "@/server/protocols/open-inference/infer-request";
import { ZServerReady } from "@/server/protocols/open-inference/infer";

function inline(schema: z.ZodType, io: "input" | "output") {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" });
  return rest;
}

const trainyardRefusal = { $ref: "#/components/schemas/Refusal" };
const jsonOf = (schema: unknown) => ({ "application/json": { schema } });
const mlflowError = inline(ZMlflowError, "output");
const inferError = inline(ZInferError, "output");
const mlflow = (description: string) => ({ description, content: jsonOf(mlflowError) });
const oip = (description: string) => ({ description, content: jsonOf(inferError) });
// Refused before the route (the request guard: a path it cannot read one way) in Trainyard's envelope, else the protocol's.
const mlflowOrGuard = (description: string) => ({ description, content: jsonOf({ anyOf: [mlflowError, trainyardRefusal] }) });
const unauthorized = { "401": { description: "No key, a key of another deployment or a revoked one, and no signed-in owner or API token (Trainyard's envelope)", content: jsonOf(trainyardRefusal) } };

const CSV_BODY = {
  type: "string",
  description: "A CSV text with a header row (pandas: df.to_csv(index=False)); each cell is read as pandas' read_csv reads the training column (empty, NA, NaN, … are missing).",
};

const invocations = (parameters: readonly unknown[]) => ({
  post: {
    summary: "Score rows with MLflow's scoring protocol",
    description:
      "Exactly one of dataframe_split, dataframe_records, instances, inputs (params are ignored), or a text/csv body. Answers one prediction per row; a classifier's class probabilities beside them.",
    parameters,
    requestBody: { required: true, content: { "application/json": { schema: inline(ZScoringRequest, "input") }, "text/csv": { schema: CSV_BODY } } },
    responses: {
      "200": { description: "The predicted class or value of each row, in order", content: jsonOf(inline(ZScoringAnswer, "output")) },
      "400": mlflowOrGuard("Not one of MLflow's inputs, another Content-Type, or rows that do not match the model's features: `fields` names each problem where it was written (`dataframe_split.data[0][1]`)"),
      ...unauthorized,
      "404": mlflow("No deployment with this id, or a language model's (ENDPOINT_NOT_FOUND, naming its routes)"),
      "413": mlflow("The body is larger than the deployment accepts (4 MiB)"),
      "429": mlflow("Too many requests at once; retry after the Retry-After header's seconds"),
      "503": mlflow("The deployment is not ready (loading, stopped, failed)"),
      "504": mlflow("The prediction did not finish within the request deadline"),
    },
  },
});

const ping = (parameters: readonly unknown[]) => ({
  get: {
    summary: "MLflow's health check: 200 while the deployment answers requests",
    parameters,
    responses: {
      "200": { description: "It answers requests (ready, switching, or idle: the next request loads it)", content: jsonOf({ type: "object", properties: { state: { type: "string" } }, required: ["state"] }) },
      "400": mlflowOrGuard("A path the server refuses to read"),
      ...unauthorized,
      "404": mlflow("No deployment with this id, or a language model's"),
      "503": mlflow("It does not answer requests now (loading, stopped, failed, unreachable)"),
    },
  },
});

const nameParameter = { name: "name", in: "path", required: true, description: "The deployment's name (another name answers 404)", schema: { type: "string" } } as const;

const infer = (parameters: readonly unknown[]) => ({
  post: {
    summary: "Infer rows with the Open Inference Protocol v2 (KServe, Triton)",
    description:
      "One input tensor per feature column (name = column, shape [N] or [N, 1], BYTES / BOOL / INT… / FP…). Outputs: predict ([N]) and, for a classifier, predict_proba ([N, C]) and classes ([C]).",
    parameters: [...parameters, nameParameter],
    requestBody: { required: true, content: jsonOf(inline(ZInferRequest, "input")) },
    responses: {
      "200": { description: "The outputs asked for (default: all the model has)", content: jsonOf(inline(ZInferResponse, "output")) },
      "400": oip("Not an inference request, tensors that are not one column each of one table, or values that do not match the model's features: `fields` names each (`inputs[1].data[0]`)"),
      ...unauthorized,
      "404": oip("No deployment with this id, a language model's, or another model name"),
      "413": oip("The body is larger than the deployment accepts (4 MiB)"),
      "429": oip("Too many requests at once; retry after the Retry-After header's seconds"),
      "503": oip("The deployment is not ready (loading, stopped, failed)"),
      "504": oip("The prediction did not finish within the request deadline"),
    },
  },
});

const ready = (parameters: readonly unknown[]) => ({
  get: {
    summary: "Open Inference's server-ready check",
    parameters,
    responses: {
      "200": { description: "It answers requests", content: jsonOf(inline(ZServerReady, "output")) },
      "400": oip("A path the server refuses to read"),
      ...unauthorized,
      "404": oip("No deployment with this id, or a language model's"),
      "503": { description: "It does not answer requests now: {\"ready\": false}", content: jsonOf(inline(ZServerReady, "output")) },
    },
  },
});

/** The four paths, under `/api/deployments/{id}/`, with `parameters` (the id's) on each. */
export function tabularProtocolPaths(parameters: readonly unknown[]) {
  return {
    "/api/deployments/{id}/invocations": invocations(parameters),
    "/api/deployments/{id}/ping": ping(parameters),
    "/api/deployments/{id}/v2/models/{name}/infer": infer(parameters),
    "/api/deployments/{id}/v2/health/ready": ready(parameters),
  };
}
