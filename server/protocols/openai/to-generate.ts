/**
 * An OpenAI request as the deployment's generate request (ZDeploymentGenerateRequest): chat
 * messages as messages (a developer message is a system one, text parts joined), a
 * completion's prompt as Trainyard's prompt (one user message in the chat template the model
 * was fine-tuned with), max_completion_tokens / max_tokens as maxNewTokens, sampling as is.
 * Without a temperature it samples at 1, OpenAI's default (Trainyard's own routes are greedy
 * without one); temperature 0 is greedy. `model` must be the deployment's name.
 */
import type { DeploymentGenerateRequest } from "@/contracts/deployments/serving";
import { badInput, DomainError } from "@/server/errors";
import type { ChatCompletionRequest, OpenAiRequest } from "./request-schema";

/** OpenAI's default temperature, where the request names none. */
export const DEFAULT_TEMPERATURE = 1;

type Messages = NonNullable<DeploymentGenerateRequest["messages"]>;

function messagesOf(messages: ChatCompletionRequest["messages"]): Messages {
  return messages.map((m) => ({
    role: m.role === "developer" ? "system" : m.role,
    content: typeof m.content === "string" ? m.content : m.content.map((p) => p.text).join(""),
  }));
}

/** 404 model_not_found, as OpenAI answers a model it does not serve. */
export function modelNotFound(asked: string, served: string): DomainError {
  return new DomainError("NOT_FOUND", `The model \`${asked}\` does not exist here: this deployment serves the model \`${served}\` (GET /v1/models lists it). Send "model": ${JSON.stringify(served)}.`, {
    code: "model_not_found",
    param: "model",
  });
}

/** The generate request, or a refusal naming the OpenAI parameter (model, max_tokens). */
export function generateRequestOf(request: OpenAiRequest, deployment: { name: string }, limits: { maxNewTokens: number }): DeploymentGenerateRequest {
  const b = request.body;
  if (b.model !== deployment.name) throw modelNotFound(b.model, deployment.name);
  const [tokensParam, maxNewTokens] = request.route === "chat" && request.body.max_completion_tokens != null ? ["max_completion_tokens", request.body.max_completion_tokens] : ["max_tokens", b.max_tokens];
  if (maxNewTokens != null && maxNewTokens > limits.maxNewTokens) {
    throw badInput(`${tokensParam} is ${maxNewTokens}; this deployment generates at most ${limits.maxNewTokens} tokens per request.`, { code: "invalid_value", param: tokensParam });
  }
  const stop = typeof b.stop === "string" ? [b.stop] : (b.stop ?? undefined);
  const sampling = {
    temperature: b.temperature ?? DEFAULT_TEMPERATURE,
    ...(b.top_p != null ? { topP: b.top_p } : {}),
    ...(b.seed != null ? { seed: b.seed } : {}),
    ...(stop?.length ? { stop } : {}),
    ...(maxNewTokens != null ? { maxNewTokens } : {}),
  };
  if (request.route === "chat") return { messages: messagesOf(request.body.messages), ...sampling };
  const prompt = typeof request.body.prompt === "string" ? request.body.prompt : (request.body.prompt[0] ?? "");
  return { prompt, ...sampling };
}
