/**
 * Every refusal of the OpenAI-compatible routes in OpenAI's error shape,
 * `{"error": {"message", "type", "param", "code"}}`, with a status the official clients map
 * to their exception classes (400 BadRequestError, 401 AuthenticationError, 404
 * NotFoundError, 429 RateLimitError, 5xx InternalServerError). The domain's refusals keep
 * their status and reason as `code`, with these exceptions, as OpenAI and vLLM answer them:
 * too many tokens asked, or a prompt longer than the model takes, is a 400 (not Trainyard's
 * 413, which stays for a body over the byte limit).
 */
import { ZodError } from "zod";
import { fieldPath } from "@/server/deployments/generate-request";
import { isDomainError, type DomainError } from "@/server/errors";
import { BodyTooLarge } from "@/server/http/json-body";
import { openAiErrorBody } from "@/server/http/openai-error-body";

export { errorType, openAiErrorBody, type OpenAiErrorBody } from "@/server/http/openai-error-body";

/** Trainyard's field names in a generate refusal, as the OpenAI request calls them. */
const PARAM_OF_FIELD: Record<string, string> = { maxNewTokens: "max_tokens", topP: "top_p" };

export function paramOfField(path: string): string {
  return PARAM_OF_FIELD[path] ?? path;
}

function paramOf(err: DomainError): string | null {
  const param = err.details?.param;
  if (typeof param === "string") return param;
  const fields = err.details?.fields;
  const first = Array.isArray(fields) ? (fields[0] as { path?: unknown } | undefined)?.path : undefined;
  return typeof first === "string" ? paramOfField(first) : null;
}

/** Status and code of a domain refusal on these routes. */
function statusAndCode(err: DomainError): { status: number; code: string } {
  if (err instanceof BodyTooLarge) return { status: 413, code: "request_too_large" };
  if (err.reason === "too_large") return { status: 400, code: paramOf(err) ? "invalid_value" : "context_length_exceeded" };
  if (err.code === "UNAUTHORIZED") return { status: 401, code: "invalid_api_key" };
  return { status: err.httpStatus, code: err.reason };
}

/** The message of a wrong-kind refusal: these routes are an LLM's; a tabular deployment names its own. */
function messageOf(err: DomainError): string {
  const use = err.details?.use;
  if (err.reason === "wrong_kind" && Array.isArray(use)) {
    return `This deployment serves a tabular model: it has no OpenAI-compatible routes (they are a language model's). Call ${use.join(" or ")} instead.`;
  }
  return err.message;
}

/** The answer to anything a handler of these routes threw; a non-domain error is a bug (logged, 500). */
export function openAiErrorResponse(err: unknown, context: string): Response {
  if (isDomainError(err)) {
    const { status, code } = statusAndCode(err);
    const retry = err.details?.retryAfterSeconds;
    const headers = typeof retry === "number" && retry > 0 ? { "retry-after": String(Math.ceil(retry)) } : undefined;
    return Response.json(openAiErrorBody(status, messageOf(err), code, paramOf(err)), { status, headers });
  }
  if (err instanceof ZodError) {
    const issue = err.issues[0];
    const param = issue?.path.length ? fieldPath(issue.path) : null;
    return Response.json(openAiErrorBody(400, `${context}: ${param ? `${param}: ` : ""}${issue?.message ?? "bad input"}`, "invalid_value", param), { status: 400 });
  }
  console.error(`${context}:`, err);
  return Response.json(openAiErrorBody(500, `${context} failed unexpectedly: ${(err as Error).message}`, "internal"), { status: 500 });
}

/**
 * A refusal written in Trainyard's shape (`{error: "…", code, details}`, as the request
 * guard and route-auth answer) in OpenAI's, its status and headers kept. Anything else
 * (an answer, or a body already in OpenAI's shape) passes unchanged.
 */
export async function asOpenAiRefusal(res: Response): Promise<Response> {
  if (res.status < 400) return res;
  const body = (await res
    .clone()
    .json()
    .catch(() => null)) as { error?: unknown; code?: unknown } | null;
  if (!body || typeof body.error !== "string") return res;
  const code = res.status === 401 ? "invalid_api_key" : typeof body.code === "string" ? body.code : null;
  const headers = new Headers(res.headers);
  headers.delete("content-length");
  return Response.json(openAiErrorBody(res.status, body.error, code), { status: res.status, headers });
}
