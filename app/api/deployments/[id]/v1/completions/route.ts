/**
 * POST /api/deployments/<id>/v1/completions — OpenAI's (legacy) text completions on an LLM
 * deployment, whole or streamed; the prompt is one user message in the chat template the
 * model was fine-tuned with, as /generate's `prompt` is. server/protocols/openai.
 */
import { completionsHandler, openAiGuarded } from "@/server/protocols/openai/openai-routes";

export const dynamic = "force-dynamic";

export const POST = openAiGuarded("write", completionsHandler("completions"));
