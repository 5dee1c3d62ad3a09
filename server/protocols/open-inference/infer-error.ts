/**
 * Refusals of the Open Inference routes in the protocol's shape, `{"error": "<message>"}`,
 * with the status of the refusal, plus Trainyard's `code` (bad_input, not_ready, …) and, for
 * a body that does not fit the model, `fields` (every problem, in the caller's paths:
 * `inputs[2].data[0]`). Retry-After is kept.
 */
import { z } from "zod";
import { ZServingError } from "@/contracts/deployments/serving";
import { isDomainError } from "@/server/errors";

export const ZInferError = z.looseObject({
  error: z.string().describe("What was refused and why"),
  code: z.string().optional().describe("Trainyard's reason: bad_input, unknown_model, not_ready, too_large, …"),
  fields: ZServingError.shape.error.shape.fields.describe("Every problem of the body, where the caller wrote it: inputs[2].data[0], …"),
});
export type InferError = z.infer<typeof ZInferError>;

export function inferErrorResponse(err: unknown, context: string): Response {
  if (!isDomainError(err)) {
    console.error(`${context}:`, err);
    const body: InferError = { error: `${context} failed unexpectedly: ${(err as Error).message}`, code: "internal" };
    return Response.json(body, { status: 500, headers: { "cache-control": "no-store" } });
  }
  const fields = Array.isArray(err.details?.fields) ? (err.details.fields as InferError["fields"]) : undefined;
  const body: InferError = { error: err.message, code: err.reason, ...(fields ? { fields } : {}) };
  const retry = err.details?.retryAfterSeconds;
  const headers: Record<string, string> = { "cache-control": "no-store", ...(typeof retry === "number" && retry > 0 ? { "retry-after": String(Math.ceil(retry)) } : {}) };
  return Response.json(body, { status: err.httpStatus, headers });
}
