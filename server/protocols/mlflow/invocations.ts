/**
 * MLflow's scoring routes of a tabular deployment, behind the same key check as /predict:
 * `POST /invocations` (a JSON body of scoring-body.ts or a CSV of scoring-csv.ts, read under
 * /predict's byte cap, then predicted through /predict's own path) and `GET /ping` (200 while
 * the deployment answers requests, 503 otherwise). Every refusal is MLflow-shaped.
 */
import { notReady, SERVING_LIMITS } from "@/server/deployments/serve-request";
import { BodyNotJson, readTextBody } from "@/server/http/json-body";
import { canServe, predictTable, tabularTarget, type TabularDeployments } from "../tabular-deployment";
import { scoringFormat } from "./content-type";
import { scoringAnswer } from "./scoring-answer";
import { scoringTable } from "./scoring-body";
import { csvTable } from "./scoring-csv";
import { mlflowErrorResponse } from "./scoring-error";

const NO_STORE = { "cache-control": "no-store" };

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new BodyNotJson();
  }
}

export async function invocations(req: Request, id: string, deployments: TabularDeployments): Promise<Response> {
  try {
    const target = await tabularTarget(deployments, id, "MLflow's /invocations");
    const format = scoringFormat(req.headers.get("content-type"));
    const text = await readTextBody(req, SERVING_LIMITS.maxRequestBytes);
    const table = format === "csv" ? csvTable(text, target.features) : scoringTable(parseJson(text));
    return Response.json(scoringAnswer(await predictTable(deployments, id, table)), { headers: NO_STORE });
  } catch (err) {
    return mlflowErrorResponse(err, "Scoring");
  }
}

/** MLflow's health check: 200 `{"state"}` while it answers requests, else 503 saying why. */
export async function ping(id: string, deployments: TabularDeployments): Promise<Response> {
  try {
    const target = await tabularTarget(deployments, id, "MLflow's /ping");
    const { serving, health } = await canServe(deployments, id);
    if (!serving) throw notReady(target.name, health.state, health.reason);
    return Response.json({ state: health.state }, { headers: NO_STORE });
  } catch (err) {
    return mlflowErrorResponse(err, "Checking the deployment");
  }
}
