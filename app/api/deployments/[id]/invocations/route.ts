/**
 * POST /api/deployments/<id>/invocations — MLflow's scoring protocol for a tabular
 * deployment: a JSON body with exactly one of dataframe_split, dataframe_records, instances,
 * inputs (or a text/csv body with a header row) in, `{"predictions": [...]}` out (and a
 * classifier's `probabilities`). Same authorization, limits and counts as /predict; refusals
 * are MLflow's `{"error_code", "message"}` with `fields` (server/protocols/mlflow).
 */
import { getDb } from "@/server/db/client";
import { deploymentsService } from "@/server/deployments/deployments.service";
import { guardedDeployment } from "@/server/http/route-auth";
import { invocations } from "@/server/protocols/mlflow/invocations";

export const dynamic = "force-dynamic";

const post = (req: Request, id: string) => invocations(req, id, deploymentsService(getDb()));

export const POST = guardedDeployment("write", post);
