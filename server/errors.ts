/**
 * Domain errors carry a code; one tRPC middleware maps them to TRPCError and the HTTP
 * routes map them to status codes. Messages are for people: they name the context.
 */
export type DomainErrorCode =
  | "BAD_INPUT"
  | "NOT_FOUND"
  | "CONFLICT"
  | "UNAVAILABLE"
  | "FORBIDDEN"
  | "UNAUTHORIZED"
  | "TOO_MANY_REQUESTS";

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "DomainError";
  }
}

export const badInput = (m: string, d?: Record<string, unknown>) => new DomainError("BAD_INPUT", m, d);
export const notFound = (m: string) => new DomainError("NOT_FOUND", m);
export const conflict = (m: string, d?: Record<string, unknown>) => new DomainError("CONFLICT", m, d);
export const unavailable = (m: string) => new DomainError("UNAVAILABLE", m);

export function isDomainError(e: unknown): e is DomainError {
  return e instanceof DomainError;
}
