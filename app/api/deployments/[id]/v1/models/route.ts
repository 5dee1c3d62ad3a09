/**
 * GET /api/deployments/<id>/v1/models — OpenAI's model list for an LLM deployment: its name
 * as the one model id (`{"object": "list", "data": [{id, object, created, owned_by}]}`).
 * Same keys as the other routes; refusals in OpenAI's error shape (server/protocols/openai).
 */
import { listModels, openAiGuarded } from "@/server/protocols/openai/openai-routes";

export const dynamic = "force-dynamic";

export const GET = openAiGuarded("read", listModels);
