/**
 * GET /api/deployments/<id>/openapi.json — the OpenAPI 3.1 description of this deployment's
 * own routes as they are now (its rows typed by the features of the version it serves),
 * for a client generator or a fuzzer. Same authorization as its health.
 */
import { loadConfig } from "@/server/config/env";
import { getDb } from "@/server/db/client";
import { deploymentsService } from "@/server/deployments/deployments.service";
import { errorResponse } from "@/server/http/error-response";
import { guardedDeployment } from "@/server/http/route-auth";
import { deploymentDocument, documentServerUrl } from "../../../openapi.json/openapi-document";

export const dynamic = "force-dynamic";

async function get(req: Request, id: string) {
  try {
    const iface = await deploymentsService(getDb()).publicInterface(id);
    const url = documentServerUrl(loadConfig().publicOrigin, req.headers.get("host"));
    return Response.json(deploymentDocument(url, iface), { headers: { "cache-control": "no-store" } });
  } catch (err) {
    return errorResponse(err, "Reading the deployment's OpenAPI document");
  }
}

export const GET = guardedDeployment("read", get);
