/**
 * POST /api/deployments/<id>/stream — the generate body in, Server-Sent Events out
 * (`metadata`, `delta`s, `heartbeat`s, then one `result` with the whole text or one
 * `error`; contracts/deployments/serving.ts ZDeploymentStreamEvent). A refusal before the
 * stream starts is an ordinary JSON error with its status. A client that disconnects
 * cancels the generation in the serving process.
 */
import { getDb } from "@/server/db/client";
import { deploymentsService } from "@/server/deployments/deployments.service";
import { SERVING_LIMITS } from "@/server/deployments/serve-request";
import { errorResponse } from "@/server/http/error-response";
import { bodyErrorResponse, readJsonBody } from "@/server/http/json-body";
import { guardedDeployment } from "@/server/http/route-auth";

export const dynamic = "force-dynamic";

// no-transform: a compressing layer would buffer the events; x-accel-buffering: nginx in front.
const SSE_HEADERS = { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store, no-transform", "x-accel-buffering": "no" };

async function post(req: Request, id: string) {
  try {
    const body = await readJsonBody(req, SERVING_LIMITS.maxRequestBytes);
    return new Response(await deploymentsService(getDb()).stream(id, body, req.signal), { headers: SSE_HEADERS });
  } catch (err) {
    return bodyErrorResponse(err) ?? errorResponse(err, "Streaming");
  }
}

export const POST = guardedDeployment("write", post);
