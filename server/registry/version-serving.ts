/**
 * What serving a version takes besides its export, owned by the version (ModelVersion
 * .serving): copied from its experiment once, at registration, so that serving, deploying,
 * downloading and restoring a version never read the experiment or its job rows again, and
 * deleting the experiment cannot break it.
 *
 * - `featureSchema`: the columns a tabular version predicts from (null for a fine-tune);
 * - `serve`: a tabular version serves its export alone; a LoRA fine-tune serves its adapter
 *   on the base model it was trained on (the import_base output, by hash) on its device;
 * - `exportJobOpId`: the job whose output the export archive is, so a damaged archive can be
 *   restored from its worker by hash.
 */
import { z } from "zod";
import { ZLoraDevice } from "@/contracts/recipes/llm-lora";
import { ZFeatureSchema } from "@/contracts/recipes/tabular";
import { parseStoredJson } from "@/server/db/stored-json";
import type { Db } from "@/server/db/client";
import { conflict } from "@/server/errors";
import { parseStoredResults } from "@/server/experiments/chain-results";
import { ownOpId } from "@/server/experiments/chain-jobs";
import { ZFineTuneSettings } from "@/server/experiments/pipelines/lora-settings";
import { trainedAdapterOf } from "@/server/experiments/pipelines/lora-adapter";
import { experimentsRepository, type ExperimentRow } from "@/server/experiments/experiments.repository";
import { exportStepOf } from "./version-source";
import { registryRepository } from "./registry.repository";

const sha256 = z.string().regex(/^[0-9a-f]{64}$/);

export const ZServeSpec = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("tabular") }),
  z.strictObject({ kind: z.literal("llm"), baseSha256: sha256, device: ZLoraDevice }),
]);
export type ServeSpec = z.infer<typeof ZServeSpec>;

export const ZVersionServing = z.strictObject({
  version: z.literal(1),
  featureSchema: ZFeatureSchema.nullable(),
  serve: ZServeSpec,
  exportJobOpId: z.string().min(1),
});
export type VersionServing = z.infer<typeof ZVersionServing>;

export const parseVersionServing = (text: string | null): VersionServing | null => parseStoredJson(ZVersionServing, text);

/**
 * The serving record of a succeeded experiment, or why none can be made (a fine-tune whose
 * base model output is gone).
 */
export async function servingOfExperiment(db: Db, exp: ExperimentRow): Promise<{ ok: true; serving: VersionServing } | { ok: false; reason: string }> {
  const exportJobOpId = ownOpId(exp.opId, exportStepOf(exp.kind));
  if (exp.kind === "finetune") {
    const trained = await trainedAdapterOf(db, exp);
    if (!trained) return { ok: false, reason: "its fine-tune no longer has its base model (the import_base output)" };
    const { device } = ZFineTuneSettings.parse(JSON.parse(exp.settings));
    return { ok: true, serving: { version: 1, featureSchema: null, serve: { kind: "llm", baseSha256: trained.baseSha256, device }, exportJobOpId } };
  }
  // null: results from a train job that wrote none; serving then refuses as it always did.
  const featureSchema = parseStoredResults(exp.results)?.featureSchema ?? null;
  return { ok: true, serving: { version: 1, featureSchema, serve: { kind: "tabular" }, exportJobOpId } };
}

/**
 * Copies a version's serving record from its experiment when it has none yet (a version
 * registered before versions kept their own): at the start after the upgrade
 * (backfill-serving.ts), or at its first use, whichever comes first. The reason when it
 * cannot: its experiment is gone.
 */
export async function copyServingRecord(db: Db, version: { id: string; experimentId: string }): Promise<{ ok: true; serving: VersionServing } | { ok: false; reason: string }> {
  const exp = await experimentsRepository(db).find(version.experimentId);
  const made = exp ? await servingOfExperiment(db, exp) : ({ ok: false, reason: "its experiment is gone" } as const);
  if (made.ok) await registryRepository(db).fillServingIfEmpty(version.id, JSON.stringify(made.serving));
  return made;
}

/**
 * A version's serving record (CONFLICT when it has none and none can be made: it was
 * registered before versions kept their own, and its experiment was deleted before then).
 */
export async function servingOfVersion(db: Db, version: { id: string; number: number }): Promise<VersionServing> {
  const row = await registryRepository(db).servingAndExperimentOf(version.id);
  const serving = parseVersionServing(row?.serving ?? null);
  if (serving) return serving;
  const copied = row ? await copyServingRecord(db, { id: version.id, experimentId: row.experimentId }) : null;
  if (copied?.ok) return copied.serving;
  throw conflict(
    `Version ${version.number} has no serving record: it was registered before versions kept their own, and the experiment it came from is gone, so what serving it takes is unknown. Train it again and register that.`,
    { code: "not_self_contained" },
  );
}
