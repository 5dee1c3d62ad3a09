/**
 * What the tabular protocol routes ask of a deployment, through the same service the
 * /predict route calls: which model it serves now (a language model's deployment answers
 * them 404, naming its own routes), whether it can serve, and the prediction of rows, so
 * limits, counts and "nothing of a request is kept" are /predict's own.
 */
import type { DeploymentPredictResponse, DeploymentHealth } from "@/contracts/deployments/serving";
import type { FeatureSchemaEntry } from "@/contracts/recipes/tabular";
import { servedRoutes } from "@/server/deployments/deployment-views";
import type { DeploymentInterface } from "@/server/deployments/public-interface";
import { DomainError } from "@/server/errors";
import { relocateRefusal, type TableRequest } from "./table-request";

/** The part of deploymentsService these routes use. */
export interface TabularDeployments {
  publicInterface(id: string): Promise<DeploymentInterface>;
  health(id: string): Promise<DeploymentHealth>;
  predict(id: string, body: unknown): Promise<DeploymentPredictResponse>;
}

export interface TabularTarget {
  id: string;
  name: string;
  features: FeatureSchemaEntry[];
}

/** 404 `wrong_kind` on a tabular protocol's `route` of a language model's deployment, naming the routes it answers. */
export function llmElsewhere(id: string, route: string): DomainError {
  const { health: _health, ...routes } = servedRoutes(id, "llm");
  const use = Object.values(routes).filter((r): r is string => typeof r === "string");
  return new DomainError("NOT_FOUND", `This deployment serves a language model (a LoRA fine-tune), not a table: use POST ${use.join(" or ")}, not ${route}.`, { code: "wrong_kind", use });
}

/** The tabular deployment `id` as it serves now, or NOT_FOUND (no such deployment, or a language model's). */
export async function tabularTarget(deployments: TabularDeployments, id: string, route: string): Promise<TabularTarget> {
  const iface = await deployments.publicInterface(id);
  if (iface.kind !== "tabular") throw llmElsewhere(id, route);
  return { id: iface.id, name: iface.name, features: iface.features };
}

/**
 * States in which a request is answered: ready, switching (the current release serves until
 * the next answers), idle (the request loads it again and waits for the load).
 */
export const SERVES_REQUESTS: readonly DeploymentHealth["state"][] = ["ready", "switching", "idle"];

export async function canServe(deployments: TabularDeployments, id: string): Promise<{ serving: boolean; health: DeploymentHealth }> {
  const health = await deployments.health(id);
  return { serving: SERVES_REQUESTS.includes(health.state), health };
}

/** /predict's answer for the table's rows; a refusal of its fields names them in the caller's shape. */
export async function predictTable(deployments: TabularDeployments, id: string, table: TableRequest): Promise<DeploymentPredictResponse> {
  try {
    return await deployments.predict(id, { rows: table.rows });
  } catch (err) {
    throw relocateRefusal(err, table);
  }
}
