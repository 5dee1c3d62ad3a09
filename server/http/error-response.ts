/**
 * The JSON answer of every route handler that is not tRPC: `{error, code, details}` with
 * the status from server/errors.ts. `code` is the precise reason when the error gave one
 * ("invalid_utf8", "too_large", "export_invalid"), else the domain code in lower case.
 * A domain error whose details carry `retryAfterSeconds` (a serving process's 429) sends
 * it on as Retry-After. Anything that is not a domain error is a bug: logged, answered 500 `internal`.
 */
import { ZodError } from "zod";
import { isDomainError } from "@/server/errors";

export function errorResponse(err: unknown, context: string): Response {
  if (isDomainError(err)) {
    const retry = err.details?.retryAfterSeconds;
    const headers = typeof retry === "number" && retry > 0 ? { "retry-after": String(Math.ceil(retry)) } : undefined;
    return Response.json({ error: err.message, code: err.reason, details: err.details ?? null }, { status: err.httpStatus, headers });
  }
  if (err instanceof ZodError) {
    const issue = err.issues[0];
    const where = issue?.path.length ? `${issue.path.join(".")}: ` : "";
    return Response.json({ error: `${context}: ${where}${issue?.message ?? "bad input"}`, code: "bad_input", details: null }, { status: 400 });
  }
  console.error(`${context}:`, err);
  return Response.json({ error: `${context} failed unexpectedly: ${(err as Error).message}`, code: "internal", details: null }, { status: 500 });
}
