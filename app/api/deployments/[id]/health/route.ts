/**
 * GET /api/deployments/<id>/health — `{state, reason, mode, release, uptimeSeconds}`:
 * ready / loading / stopped / …, with the release it serves. Same authorization as predict.
 * `unreachable` (a resident deployment's SSH computer cannot be reached) answers 503.
 */
import { getDb } from "@/server/db/client";
import { deploymentsService } from "@/server/deployments/deployments.service";
import { errorResponse } from "@/server/http/error-response";
import { guardedDeployment } from "@/server/http/route-auth";

export const dynamic = "force-dynamic";

async function get(_req: Request, id: string) {
  try {
    const health = await deploymentsService(getDb()).health(id);
    // Unreachable: a monitor that reads only the status sees the deployment does not serve now.
    const headers = { "cache-control": "no-store", ...(health.state === "unreachable" ? { "retry-after": "5" } : {}) };
    return Response.json(health, { status: health.state === "unreachable" ? 503 : 200, headers });
  } catch (err) {
    return errorResponse(err, "Reading the deployment's health");
  }
}

export const GET = guardedDeployment("read", get);
