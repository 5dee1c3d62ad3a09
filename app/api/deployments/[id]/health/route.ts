/**
 * GET /api/deployments/<id>/health — `{state, reason, mode, release, uptimeSeconds}`:
 * ready / loading / stopped / …, with the release it serves. Same authorization as predict.
 */
import { getDb } from "@/server/db/client";
import { deploymentsService } from "@/server/deployments/deployments.service";
import { errorResponse } from "@/server/http/error-response";
import { guardedDeployment } from "@/server/http/route-auth";

export const dynamic = "force-dynamic";

async function get(_req: Request, id: string) {
  try {
    return Response.json(await deploymentsService(getDb()).health(id), { headers: { "cache-control": "no-store" } });
  } catch (err) {
    return errorResponse(err, "Reading the deployment's health");
  }
}

export const GET = guardedDeployment("read", get);
