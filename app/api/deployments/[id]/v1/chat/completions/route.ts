/**
 * POST /api/deployments/<id>/v1/chat/completions — OpenAI's chat completions on an LLM
 * deployment, whole or streamed (`stream: true`: `data: {chunk}` blocks, then
 * `data: [DONE]`), through the same generate / stream path as /generate and /stream.
 * What it takes and refuses: server/protocols/openai/request-schema.ts.
 */
import { completionsHandler, openAiGuarded } from "@/server/protocols/openai/openai-routes";

export const dynamic = "force-dynamic";

export const POST = openAiGuarded("write", completionsHandler("chat"));
