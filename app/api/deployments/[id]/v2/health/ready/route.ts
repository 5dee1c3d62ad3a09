/**
 * GET /api/deployments/<id>/v2/health/ready — the Open Inference Protocol's server-ready
 * check for a tabular deployment: 200 `{"ready": true}` while it answers requests, else 503
 * `{"ready": false}`. Same authorization as /health.
 */
import { getDb } from "@/server/db/client";
import { deploymentsService } from "@/server/deployments/deployments.service";
import { guardedDeployment } from "@/server/http/route-auth";
import { serverReady } from "@/server/protocols/open-inference/infer";

export const dynamic = "force-dynamic";

const get = (_req: Request, id: string) => serverReady(id, deploymentsService(getDb()));

export const GET = guardedDeployment("read", get);
