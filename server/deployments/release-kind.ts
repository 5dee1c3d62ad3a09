/**
 * What serving a registry version takes, by its kind: a tabular version is its export
 * alone (serve-tabular); a LoRA fine-tune's is its adapter export on the base model it was
 * trained on (serve-llm), the fine-tune's import_base output where it was trained (found
 * where Try it finds it: trainedAdapterOf). Only a resident process serves an LLM: an
 * on-demand request would load the base model for every call.
 */
import type { ServeJobInput, ServingKind } from "@/contracts/deployments/serving";
import type { Db } from "@/server/db/client";
import type { Tx } from "@/server/lifecycle/transition";
import { conflict } from "@/server/errors";
import { experimentsRepository } from "@/server/experiments/experiments.repository";
import { ZFineTuneSettings } from "@/server/finetune/finetune.schema";
import { trainedAdapterOf } from "@/server/finetune/finetune.views";
import { evidenceFromColumns, type VersionEvidence } from "@/server/registry/version-evidence";

export type ServeSpec = { kind: "tabular" } | { kind: "llm"; baseSha256: string; device: NonNullable<ServeJobInput["device"]> };

export const servingKindOf = (e: Pick<VersionEvidence, "kind">): ServingKind => (e.kind === "lora" ? "llm" : "tabular");

/** The serving kind of a stored version row (its evidence column says which it is). */
export const kindOfVersionRow = (row: { receipt: string; baselineReceipt: string }): ServingKind => servingKindOf(evidenceFromColumns(row));

/** The kind of model a deployment serves (the same for every release: deployment-actions sameKind). */
export async function deploymentKind(db: Db | Tx, row: { currentReleaseId: string | null }): Promise<ServingKind> {
  const release = row.currentReleaseId ? await db.deploymentRelease.findUnique({ where: { id: row.currentReleaseId }, select: { versionId: true } }) : null;
  const version = release ? await db.modelVersion.findUnique({ where: { id: release.versionId }, select: { receipt: true, baselineReceipt: true } }) : null;
  return version ? kindOfVersionRow(version) : "tabular";
}

export const ON_DEMAND_LLM_REFUSAL =
  "A LoRA fine-tune is served resident only: on demand, every request would load the base model again. Deploy it with --mode resident (on This computer).";

/** What the serving job of a version needs besides its export (CONFLICT when the base is gone). */
export async function serveSpecOf(db: Db, version: { experimentId: string; number: number; evidence: Pick<VersionEvidence, "kind"> }): Promise<ServeSpec> {
  if (servingKindOf(version.evidence) === "tabular") return { kind: "tabular" };
  const exp = await experimentsRepository(db).find(version.experimentId);
  const trained = exp ? await trainedAdapterOf(db, exp) : null;
  if (!exp || !trained) {
    throw conflict(`Version ${version.number}'s fine-tune no longer has its base model (its import_base output): it cannot be served. Fine-tune it again and register that.`, { code: "base_missing" });
  }
  return { kind: "llm", baseSha256: trained.baseSha256, device: ZFineTuneSettings.parse(JSON.parse(exp.settings)).device };
}
