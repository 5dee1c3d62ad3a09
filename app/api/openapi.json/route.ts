/** GET /api/openapi.json — the OpenAPI 3.1 description of the deployments' public routes, with this server's URL. */
import { guarded } from "@/server/http/route-auth";
import { loadConfig } from "@/server/config/env";
import { documentServerUrl, openApiDocument } from "./openapi-document";

export const dynamic = "force-dynamic";

function get(req: Request) {
  const url = documentServerUrl(loadConfig().publicOrigin, req.headers.get("host"));
  return Response.json(openApiDocument(url), { headers: { "cache-control": "no-store" } });
}

export const GET = guarded("read", get);
