/**
 * The body of a request the guard refused (a wrong key, a body over the limit) on a path of
 * another protocol, in that protocol's error shape, so its clients raise their own errors:
 * OpenAI's under a deployment's /v1/. Null: Trainyard's own envelope (start-server.ts).
 */
import { openAiErrorBody } from "./openai-error-body";
import { normaliseRequestPath } from "./request-path";

const OPENAI_PATH = /^\/api\/deployments\/[^/]+\/v1\//;

export function protocolRefusalBody(rawUrl: string | undefined, refusal: { status: number; code: string; message: string }): object | null {
  const target = normaliseRequestPath(rawUrl ?? "/");
  if (!target.ok) return null;
  if (OPENAI_PATH.test(target.path)) return openAiErrorBody(refusal.status, refusal.message, refusal.status === 401 ? "invalid_api_key" : refusal.code);
  return null;
}
