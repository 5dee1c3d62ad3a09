/** Maps domain errors to HTTP answers for the experiment route handlers (JSON `{error, code}`). */
import { ZodError } from "zod";
import { isDomainError, type DomainErrorCode } from "@/server/errors";
import { ExportInvalid } from "./verify-export";

const STATUS: Record<DomainErrorCode, number> = {
  BAD_INPUT: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  TOO_MANY_REQUESTS: 429,
  UNAVAILABLE: 503,
};

export function errorResponse(err: unknown, context: string): Response {
  if (isDomainError(err)) return Response.json({ error: err.message, code: err.code, details: err.details ?? null }, { status: STATUS[err.code] });
  if (err instanceof ExportInvalid) return Response.json({ error: err.message, code: "EXPORT_INVALID" }, { status: 409 });
  if (err instanceof ZodError) return Response.json({ error: `${context}: ${err.issues[0]?.message ?? "bad input"}`, code: "BAD_INPUT" }, { status: 400 });
  console.error(`${context}:`, err);
  return Response.json({ error: `${context} failed unexpectedly: ${(err as Error).message}`, code: "INTERNAL" }, { status: 500 });
}
