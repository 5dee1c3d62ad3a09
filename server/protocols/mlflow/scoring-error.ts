/**
 * Refusals of the MLflow routes in MLflow's shape (MlflowException.serialize_as_json):
 * `{"error_code", "message"}` with the status MLflow gives that code, plus the extra keys an
 * MlflowException may carry: `fields` (every problem of the body, in the caller's paths) and
 * `reason` (Trainyard's precise code: `not_ready`, `too_many_rows`, …). Retry-After is kept.
 * Status by error_code: BAD_REQUEST 400 (and 413 for a body over the limit, which MLflow has
 * no code for), RESOURCE_DOES_NOT_EXIST / ENDPOINT_NOT_FOUND 404, REQUEST_LIMIT_EXCEEDED 429,
 * TEMPORARILY_UNAVAILABLE 503, DEADLINE_EXCEEDED 504, INTERNAL_ERROR 500.
 */
import { z } from "zod";
import { ZServingError } from "@/contracts/deployments/serving";
import { isDomainError } from "@/server/errors";

export const ZMlflowError = z.looseObject({
  error_code: z.string().describe("MLflow's error code: BAD_REQUEST, RESOURCE_DOES_NOT_EXIST, TEMPORARILY_UNAVAILABLE, …"),
  message: z.string(),
  reason: z.string().optional().describe("Trainyard's precise reason: bad_input, too_many_rows, not_ready, …"),
  fields: ZServingError.shape.error.shape.fields.describe("Every problem of the body, where the caller wrote it: dataframe_split.data[3][1], csv[0].island, …"),
});
export type MlflowError = z.infer<typeof ZMlflowError>;

const CODE_BY_STATUS: Record<number, string> = {
  400: "BAD_REQUEST",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  409: "RESOURCE_CONFLICT",
  413: "BAD_REQUEST",
  429: "REQUEST_LIMIT_EXCEEDED",
  503: "TEMPORARILY_UNAVAILABLE",
  504: "DEADLINE_EXCEEDED",
};

function errorCode(status: number, reason: string): string {
  if (status === 404) return reason === "wrong_kind" ? "ENDPOINT_NOT_FOUND" : "RESOURCE_DOES_NOT_EXIST";
  return CODE_BY_STATUS[status] ?? (status >= 500 ? "INTERNAL_ERROR" : "BAD_REQUEST");
}

export function mlflowErrorResponse(err: unknown, context: string): Response {
  if (!isDomainError(err)) {
    console.error(`${context}:`, err);
    const body: MlflowError = { error_code: "INTERNAL_ERROR", message: `${context} failed unexpectedly: ${(err as Error).message}` };
    return Response.json(body, { status: 500, headers: { "cache-control": "no-store" } });
  }
  const status = err.httpStatus;
  const fields = Array.isArray(err.details?.fields) ? (err.details.fields as MlflowError["fields"]) : undefined;
  const body: MlflowError = { error_code: errorCode(status, err.reason), message: err.message, reason: err.reason, ...(fields ? { fields } : {}) };
  const retry = err.details?.retryAfterSeconds;
  const headers: Record<string, string> = { "cache-control": "no-store", ...(typeof retry === "number" && retry > 0 ? { "retry-after": String(Math.ceil(retry)) } : {}) };
  return Response.json(body, { status, headers });
}
