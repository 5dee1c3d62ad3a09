/** GET /api/openapi.json — the OpenAPI 3.1 description of the deployments' public routes, with this server's URL. */
import { guarded } from "@/server/http/route-auth";
import { openApiDocument } from "./openapi-document";

export const dynamic = "force-dynamic";

function get(req: Request) {
  return Response.json(openApiDocument(new URL(req.url).origin), { headers: { "cache-control": "no-store" } });
}

export const GET = guarded("read", get);
