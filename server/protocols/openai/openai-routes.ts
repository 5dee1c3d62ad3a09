/**
 * The handlers behind app/api/deployments/[id]/v1/… (an LLM deployment's OpenAI-compatible
 * routes): the body mapped by this folder's modules and answered through the deployments
 * service's own generate and stream (the same limits, deadline, retry across a switch,
 * cancel on disconnect and counts as /generate and /stream), every refusal in OpenAI's
 * error shape — the route-auth refusals included. GET /v1/models reads the deployment and
 * wakes nothing; it does not count as a request, as health does not.
 */
import { getDb } from "@/server/db/client";
import { deploymentKind } from "@/server/deployments/release-kind";
import { deploymentsService } from "@/server/deployments/deployments.service";
import { LLM_MAX_NEW_TOKENS } from "@/server/deployments/resident-serving";
import type { GenerateProtocol } from "@/server/deployments/serve-generate";
import { current, SERVING_LIMITS, wrongRoute } from "@/server/deployments/serve-request";
import { readJsonBody } from "@/server/http/json-body";
import { guardedDeployment, type Access } from "@/server/http/route-auth";
import { asOpenAiRefusal, openAiErrorResponse } from "./errors";
import { parseOpenAiRequest, type OpenAiRoute } from "./request-schema";
import { completionResponse, modelList, newCompletion, type Completion } from "./responses";
import { openAiStreamWriter } from "./stream-chunks";
import { generateRequestOf } from "./to-generate";

// no-transform: a compressing layer would buffer the chunks; x-accel-buffering: nginx in front.
const SSE_HEADERS = { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store, no-transform", "x-accel-buffering": "no" };
const NO_STORE = { "cache-control": "no-store" };

type Handler = (req: Request, deploymentId: string) => Promise<Response>;

/** guardedDeployment, its own refusals (no key, a signed-in caller without the right) in OpenAI's shape. */
export function openAiGuarded(access: Access, handler: Handler) {
  return async (req: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> => {
    let reached = false;
    const res = await guardedDeployment(access, (r, id) => {
      reached = true;
      return handler(r, id);
    })(req, ctx);
    return reached ? res : asOpenAiRefusal(res);
  };
}

const wantsStream = (body: unknown) => typeof body === "object" && body !== null && (body as { stream?: unknown }).stream === true;

/** POST /v1/chat/completions or /v1/completions. */
export function completionsHandler(route: OpenAiRoute): Handler {
  const context = route === "chat" ? "Chat completion" : "Completion";
  return async (req, id) => {
    try {
      const body = await readJsonBody(req, SERVING_LIMITS.maxRequestBytes);
      // Filled once the service has found the deployment and the body is valid for it.
      const exchange: { completion?: Completion; write?: (e: Parameters<NonNullable<GenerateProtocol["render"]>>[0]) => string } = {};
      const protocol: GenerateProtocol = {
        toRequest(raw, deployment) {
          const request = parseOpenAiRequest(route, raw);
          const generate = generateRequestOf(request, deployment, { maxNewTokens: LLM_MAX_NEW_TOKENS });
          exchange.completion = newCompletion(route, request.body.model);
          exchange.write = openAiStreamWriter(exchange.completion, { includeUsage: request.body.stream_options?.include_usage === true });
          return generate;
        },
        render: (e) => exchange.write!(e),
      };
      const service = deploymentsService(getDb());
      if (wantsStream(body)) return new Response(await service.stream(id, body, req.signal, protocol), { headers: SSE_HEADERS });
      const answer = await service.generate(id, body, req.signal, protocol);
      return Response.json(completionResponse(exchange.completion!, answer), { headers: NO_STORE });
    } catch (err) {
      return openAiErrorResponse(err, context);
    }
  };
}

/** GET /v1/models: the deployment's name as its one model, created when its current release was. */
export async function listModels(_req: Request, id: string): Promise<Response> {
  try {
    const db = getDb();
    const { d, release } = await current(db, id);
    if ((await deploymentKind(db, d)) !== "llm") throw wrongRoute(d.id, "tabular");
    return Response.json(modelList({ id: d.name, created: release?.createdAt ?? d.createdAt }), { headers: NO_STORE });
  } catch (err) {
    return openAiErrorResponse(err, "Listing models");
  }
}
