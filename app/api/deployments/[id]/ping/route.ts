/**
 * GET /api/deployments/<id>/ping — MLflow's health check for a tabular deployment: 200 while
 * it answers requests (ready, switching, idle), 503 otherwise. Same authorization as /health.
 */
import { getDb } from "@/server/db/client";
import { deploymentsService } from "@/server/deployments/deployments.service";
import { guardedDeployment } from "@/server/http/route-auth";
import { ping } from "@/server/protocols/mlflow/invocations";

export const dynamic = "force-dynamic";

const get = (_req: Request, id: string) => ping(id, deploymentsService(getDb()));

export const GET = guardedDeployment("read", get);
