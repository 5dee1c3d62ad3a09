/**
 * POST /api/deployments/<id>/generate — `{"prompt": "…"}` or `{"messages": [{role, content}, …]}`
 * (optional `maxNewTokens`) in, `{text, promptTokens, generatedTokens, finishReason, release}`
 * out, from the LLM deployment's resident serving process. Same authorization as predict;
 * a bad body is 400 with `details.fields`, a tabular deployment answers 404 naming /predict.
 */
import { getDb } from "@/server/db/client";
import { deploymentsService } from "@/server/deployments/deployments.service";
import { SERVING_LIMITS } from "@/server/deployments/serve-request";
import { errorResponse } from "@/server/http/error-response";
import { bodyErrorResponse, readJsonBody } from "@/server/http/json-body";
import { guardedDeployment } from "@/server/http/route-auth";

export const dynamic = "force-dynamic";

async function post(req: Request, id: string) {
  try {
    const body = await readJsonBody(req, SERVING_LIMITS.maxRequestBytes);
    return Response.json(await deploymentsService(getDb()).generate(id, body, req.signal), { headers: { "cache-control": "no-store" } });
  } catch (err) {
    return bodyErrorResponse(err) ?? errorResponse(err, "Generating");
  }
}

export const POST = guardedDeployment("write", post);
