/**
 * Domain errors carry a code; one tRPC middleware maps them to TRPCError and the HTTP
 * routes answer them with server/http/error-response.ts — both from the one table below.
 * Messages are for people: they name the context. `details.code`, when given, is the
 * precise reason a client can act on ("invalid_utf8", "too_large", "export_invalid").
 */
export type DomainErrorCode =
  | "BAD_INPUT"
  | "NOT_FOUND"
  | "CONFLICT"
  | "UNAVAILABLE"
  | "FORBIDDEN"
  | "UNAUTHORIZED"
  | "TOO_MANY_REQUESTS";

/**
 * Each code's HTTP status and its tRPC name (tRPC answers that name with the same
 * status; errors.test.ts checks it against tRPC's own table).
 */
export const ERROR_ANSWERS = {
  BAD_INPUT: { status: 400, trpc: "BAD_REQUEST" },
  UNAUTHORIZED: { status: 401, trpc: "UNAUTHORIZED" },
  FORBIDDEN: { status: 403, trpc: "FORBIDDEN" },
  NOT_FOUND: { status: 404, trpc: "NOT_FOUND" },
  CONFLICT: { status: 409, trpc: "CONFLICT" },
  TOO_MANY_REQUESTS: { status: 429, trpc: "TOO_MANY_REQUESTS" },
  UNAVAILABLE: { status: 503, trpc: "SERVICE_UNAVAILABLE" },
} as const satisfies Record<DomainErrorCode, { status: number; trpc: string }>;

/**
 * Reasons whose HTTP status is more precise than their code's (an upload over the cap is
 * BAD_INPUT to tRPC but 413 to an HTTP client; a full disk is UNAVAILABLE but 507).
 */
const REASON_STATUS: Readonly<Record<string, number>> = { too_large: 413, disk_full: 507 };

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "DomainError";
  }

  /** The precise reason when one was given, else the code in lower case ("not_found"). */
  get reason(): string {
    const r = this.details?.code;
    return typeof r === "string" ? r : this.code.toLowerCase();
  }

  get httpStatus(): number {
    return REASON_STATUS[this.reason] ?? ERROR_ANSWERS[this.code].status;
  }
}

export const badInput = (m: string, d?: Record<string, unknown>) => new DomainError("BAD_INPUT", m, d);
export const notFound = (m: string) => new DomainError("NOT_FOUND", m);
export const conflict = (m: string, d?: Record<string, unknown>) => new DomainError("CONFLICT", m, d);
export const unavailable = (m: string) => new DomainError("UNAVAILABLE", m);

export function isDomainError(e: unknown): e is DomainError {
  return e instanceof DomainError;
}

/**
 * `.catch(absentWhenNotFound)` on a read whose "it is not there" is an answer: null for a
 * NOT_FOUND domain error only. Anything else (a database that did not answer, a bug) goes
 * on up, so a passing failure is retried instead of being taken for "deleted".
 */
export function absentWhenNotFound(err: unknown): null {
  if (isDomainError(err) && err.code === "NOT_FOUND") return null;
  throw err;
}
