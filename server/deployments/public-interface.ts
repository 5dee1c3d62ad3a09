/**
 * What a deployment's public routes take now, for its own OpenAPI document: its kind, the
 * release it serves, and for a tabular one the feature schema of that release's version
 * (the version's own serving record), for an LLM its token limit. Reading it wakes nothing.
 */
import type { FeatureSchemaEntry } from "@/contracts/recipes/tabular";
import type { Db } from "@/server/db/client";
import { unavailable } from "@/server/errors";
import { servingOfVersion } from "@/server/registry/version-serving";
import { deploymentsRepository } from "./deployments.repository";
import { kindOfVersionRow } from "./release-kind";
import { LLM_MAX_NEW_TOKENS } from "./resident-serving";
import { current, SERVING_LIMITS } from "./serve-request";

interface Common {
  id: string;
  name: string;
  release: { number: number; version: number };
}

export type DeploymentInterface =
  | (Common & { kind: "tabular"; features: FeatureSchemaEntry[]; maxRows: number })
  | (Common & { kind: "llm"; maxNewTokens: number });

export async function deploymentInterface(db: Db, id: string): Promise<DeploymentInterface> {
  const { d, release } = await current(db, id);
  if (!release) throw unavailable(`The deployment "${d.name}" serves no release yet.`);
  const version = await deploymentsRepository(db).versionOrThrow(release.versionId);
  const common = { id: d.id, name: d.name, release: { number: release.number, version: release.version } };
  if (kindOfVersionRow(version) === "llm") return { ...common, kind: "llm", maxNewTokens: LLM_MAX_NEW_TOKENS };
  return { ...common, kind: "tabular", features: (await servingOfVersion(db, version)).featureSchema?.features ?? [], maxRows: SERVING_LIMITS.maxRows };
}
