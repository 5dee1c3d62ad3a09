/**
 * POST /api/deployments/<id>/predict — `{"rows": [{column: value, …}, …]}` in,
 * `{"predictions": [{"prediction", "probabilities"?}, …], "release"}` out. Authorization:
 * `Bearer <key of this deployment>`, or the owner's session / full API token. Rows are
 * checked against the version's feature schema (400 with `details.fields`), the body is
 * capped before it is parsed (413), and a deployment that is not ready answers 503.
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
    return Response.json(await deploymentsService(getDb()).predict(id, body), { headers: { "cache-control": "no-store" } });
  } catch (err) {
    return bodyErrorResponse(err) ?? errorResponse(err, "Predicting");
  }
}

export const POST = guardedDeployment("write", post);
