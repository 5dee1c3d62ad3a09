/**
 * OpenAI's error envelope, `{"error": {"message", "type", "param", "code"}}`: here in the
 * HTTP layer because the request guard answers its own refusals (a wrong key, a body over
 * the limit) on a deployment's `/v1/` paths in this shape too (protocol-refusal.ts), and the
 * OpenAI routes' own refusals (server/protocols/openai/errors.ts) build on it.
 */
export interface OpenAiErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

export function errorType(status: number): string {
  if (status === 429) return "rate_limit_error";
  return status >= 500 ? "server_error" : "invalid_request_error";
}

export function openAiErrorBody(status: number, message: string, code: string | null, param: string | null = null): OpenAiErrorBody {
  return { error: { message, type: errorType(status), param, code } };
}
