/**
 * What serving a registry version takes, by its kind: a tabular version is its export
 * alone (serve-tabular); a LoRA fine-tune's is its adapter export on the base model it was
 * trained on (serve-llm), the fine-tune's import_base output where it was trained, by the
 * hash the version recorded at registration (version-serving.ts). Only a resident process serves an LLM: an
 * on-demand request would load the base model for every call.
 */
import type { ServingKind } from "@/contracts/deployments/serving";
import type { Db } from "@/server/db/client";
import type { Tx } from "@/server/lifecycle/transition";
import { evidenceFromColumns, type VersionEvidence } from "@/server/registry/version-evidence";
import { servingOfVersion, type ServeSpec } from "@/server/registry/version-serving";
import { deploymentsRepository } from "./deployments.repository";

export type { ServeSpec };

export const servingKindOf = (e: Pick<VersionEvidence, "kind">): ServingKind => (e.kind === "lora" ? "llm" : "tabular");

/** The serving kind of a stored version row (its evidence column says which it is). */
export const kindOfVersionRow = (row: { receipt: string; baselineReceipt: string }): ServingKind => servingKindOf(evidenceFromColumns(row));

/** The kind of model a deployment serves (the same for every release: deployment-actions sameKind). */
export async function deploymentKind(db: Db | Tx, row: { currentReleaseId: string | null }): Promise<ServingKind> {
  const repo = deploymentsRepository(db);
  const release = row.currentReleaseId ? await repo.releaseVersionId(row.currentReleaseId) : null;
  const version = release ? await repo.versionEvidence(release.versionId) : null;
  return version ? kindOfVersionRow(version) : "tabular";
}

export const ON_DEMAND_LLM_REFUSAL =
  "A LoRA fine-tune is served resident only: on demand, every request would load the base model again. Deploy it with --mode resident (on This computer).";

/** What the serving job of a version needs besides its export: the version's own record, never its experiment's. */
export async function serveSpecOf(db: Db, version: { id: string; number: number }): Promise<ServeSpec> {
  return (await servingOfVersion(db, version)).serve;
}
