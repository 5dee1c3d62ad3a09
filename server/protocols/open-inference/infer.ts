/**
 * The Open Inference Protocol v2 routes of a tabular deployment, behind the same key check as
 * /predict: `POST /v2/models/<name>/infer` (`<name>` is the deployment's name; the body is read
 * under /predict's byte cap and predicted through /predict's own path) and
 * `GET /v2/health/ready` (200 `{"ready": true}` while it answers requests, else 503
 * `{"ready": false}`). Every refusal is `{"error": …}`.
 */
import { SERVING_LIMITS } from "@/server/deployments/serve-request";
import { DomainError } from "@/server/errors";
import { readJsonBody } from "@/server/http/json-body";
import { z } from "zod";
import { canServe, predictTable, tabularTarget, type TabularDeployments } from "../tabular-deployment";
import { inferAnswer, requestedOutputs } from "./infer-answer";
import { inferErrorResponse } from "./infer-error";
import { inferTable, parseInferRequest } from "./infer-request";

const NO_STORE = { "cache-control": "no-store" };

export const ZServerReady = z.strictObject({ ready: z.boolean() });

/** The model name of the path as written, whether or not the router decoded it already (a deployment's name has no `%`). */
function decodedName(name: string): string {
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

export async function infer(req: Request, id: string, pathName: string, deployments: TabularDeployments): Promise<Response> {
  const modelName = decodedName(pathName);
  try {
    const target = await tabularTarget(deployments, id, "Open Inference's /v2/models/<name>/infer");
    if (modelName !== target.name) {
      throw new DomainError("NOT_FOUND", `This deployment serves the model "${target.name}", not "${modelName}": POST /api/deployments/${id}/v2/models/${encodeURIComponent(target.name)}/infer.`, { code: "unknown_model" });
    }
    const request = parseInferRequest(await readJsonBody(req, SERVING_LIMITS.maxRequestBytes));
    const asked = requestedOutputs(request);
    const answer = await predictTable(deployments, id, inferTable(request));
    return Response.json(inferAnswer(target.name, request, asked, answer), { headers: NO_STORE });
  } catch (err) {
    return inferErrorResponse(err, "Inferring");
  }
}

export async function serverReady(id: string, deployments: TabularDeployments): Promise<Response> {
  try {
    await tabularTarget(deployments, id, "Open Inference's /v2/health/ready");
    const { serving } = await canServe(deployments, id);
    return Response.json({ ready: serving }, { status: serving ? 200 : 503, headers: NO_STORE });
  } catch (err) {
    return inferErrorResponse(err, "Checking the deployment");
  }
}
