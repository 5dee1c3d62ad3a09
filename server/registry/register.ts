/**
 * Registering a finished, evaluated experiment as a new immutable version of a model.
 * The experiment is the operation id: registering it again answers the version it is.
 * A tabular experiment and a LoRA fine-tune register alike (version-source.ts reads each).
 * Refusals (with the reason, changing nothing): an experiment that did not succeed or has
 * no evaluation receipt; a new model name that is taken in the project (case-insensitive);
 * a bound (models per project, versions per model, export bytes per project) — the
 * refusal names what could be removed.
 */
import { publish } from "@/server/events/bus";
import { exclusionEvidenceOf } from "@/server/registry/exclusion-evidence";
import { z } from "zod";
import { formatBytes } from "@/contracts/vocabulary";
import type { Db } from "@/server/db/client";
import { badInput, conflict, notFound } from "@/server/errors";
import { ownOpId } from "@/server/experiments/chain-jobs";
import { experimentsRepository } from "@/server/experiments/experiments.repository";
import { jobsRepository } from "@/server/jobs/jobs.repository";
import { LIMITS, nameKey, type TRegisterInput } from "./registry.schema";
import { ensureManagedExport } from "./managed-export";
import { registeredBytes, removableWords, retentionPreview } from "./retention";
import { registrySettings } from "./registry-settings";
import { findModel, modelView, versionView, type ModelView, type VersionView } from "./registry-views";
import { registryRepository } from "./registry.repository";
import { markExportIn } from "./version-store";
import { evidenceColumns } from "./version-evidence";
import { exportStepOf, versionFields } from "./version-source";
import { servingOfExperiment } from "./version-serving";

export interface RegisterResult {
  model: ModelView;
  version: VersionView;
  /** false: the experiment was already this version (a repeat). */
  created: boolean;
  /** Set when the export had to be restored from the worker, or could not be. */
  exportNote: string | null;
}

const ZReusedTrain = z.object({ reuseTrainOpId: z.string().optional() });

async function registrable(db: Db, experimentId: string) {
  const exp = await experimentsRepository(db).find(experimentId);
  if (!exp) throw notFound(`There is no experiment ${experimentId}.`);
  if (exp.status !== "succeeded") {
    throw badInput(`"${exp.name}" ${exp.status === "running" ? "is still running" : `ended ${exp.status}`}; only a succeeded, evaluated experiment can be registered.`, {
      code: "experiment_not_succeeded",
    });
  }
  const fields = versionFields(exp);
  if (!fields || !exp.exportSha256) {
    throw badInput(`"${exp.name}" has no evaluation receipt and export to register.`, { code: "no_evaluation_receipt" });
  }
  // A search's final experiment reuses its winning trial's train job (settings.reuseTrainOpId).
  const reused = ZReusedTrain.safeParse(JSON.parse(exp.settings)).data?.reuseTrainOpId;
  const jobs = jobsRepository(db);
  const train = (await jobs.findByOpId(ownOpId(exp.opId, "train"))) ?? (reused ? await jobs.findByOpId(reused) : null);
  if (!train) throw badInput(`"${exp.name}" has no training job on record, so its recipe identity is unknown.`, { code: "no_training_job" });
  return { exp, fields, train, exportSha256: exp.exportSha256 };
}

async function existingVersion(db: Db, modelId: string, experimentId: string): Promise<RegisterResult | null> {
  const row = await registryRepository(db).versionOfExperiment(modelId, experimentId);
  if (!row) return null;
  const model = await findModel(db, modelId);
  return { model: await modelView(db, model), version: versionView(row), created: false, exportNote: null };
}

async function checkBounds(db: Db, projectId: string, modelId: string | null, exportSha256: string, exportBytes: number): Promise<void> {
  const removeHint = async () => removableWords(await retentionPreview(db, projectId));
  if (modelId === null) {
    const models = await registryRepository(db).countModels(projectId);
    if (models >= LIMITS.modelsPerProject) {
      throw conflict(`This project has ${models} models, the most it may hold (${LIMITS.modelsPerProject}); register into an existing model instead.`, { code: "too_many_models" });
    }
  } else {
    const versions = await registryRepository(db).countVersions(modelId);
    if (versions >= LIMITS.versionsPerModel) {
      throw conflict(`This model has ${versions} versions, the most it may hold (${LIMITS.versionsPerModel}). Could be removed: ${await removeHint()}.`, { code: "too_many_versions" });
    }
  }
  const used = await registeredBytes(db, projectId);
  const budget = (await registrySettings(db)).exportBytesPerProject;
  const after = used.bytes + (used.hashes.has(exportSha256) ? 0 : exportBytes);
  if (after > budget) {
    throw conflict(
      `Registering this export (${formatBytes(exportBytes)}) would put the project's registered exports at ${formatBytes(after)}, over its ${formatBytes(budget)}. Could be removed: ${await removeHint()}.`,
      { code: "export_budget" },
    );
  }
}

export async function register(db: Db, input: TRegisterInput): Promise<RegisterResult> {
  const { exp, fields, train, exportSha256 } = await registrable(db, input.experimentId);
  let modelId: string | null = null;
  if (input.modelId) {
    const model = await findModel(db, input.modelId);
    if (model.projectId !== exp.projectId) throw badInput(`Model "${model.name}" belongs to another project than experiment "${exp.name}".`, { code: "other_project" });
    modelId = model.id;
  } else {
    const taken = await registryRepository(db).modelByNameKey(exp.projectId, nameKey(input.newModelName!));
    if (taken) {
      // A retried "register as a new model" that already succeeded answers what it did.
      const again = await existingVersion(db, taken.id, exp.id);
      if (again) return again;
      throw conflict(`The name "${taken.name}" is already used by a model in this project (names are compared ignoring case).`, { code: "name_taken" });
    }
  }
  if (modelId) {
    const again = await existingVersion(db, modelId, exp.id);
    if (again) return again;
  }
  await checkBounds(db, exp.projectId, modelId, exportSha256, Number(exp.exportBytes ?? 0));
  const serving = await servingOfExperiment(db, exp);
  if (!serving.ok) throw conflict(`"${exp.name}" cannot be registered: ${serving.reason}, so it could never be served. Fine-tune it again and register that.`, { code: "base_missing" });
  const stored = await ensureManagedExport(db, exportSha256, ownOpId(exp.opId, exportStepOf(exp.kind)));
  const exclusion = await exclusionEvidenceOf(db, exp);
  const exportNote = stored.present ? (stored.restored ? "The export was missing or damaged and was restored from the worker by its hash." : null) : `Export missing: ${stored.reason}`;
  try {
    const versionId = await db.$transaction(async (tx) => {
      const repo = registryRepository(tx);
      const id = modelId ?? (await repo.createModel({ projectId: exp.projectId, name: input.newModelName!.trim(), nameKey: nameKey(input.newModelName!) })).id;
      const last = await repo.lastVersionNumber(id);
      const row = await repo.createVersion({
        modelId: id,
        number: (last ?? 0) + 1,
        experimentId: exp.id,
        status: "registering",
        exportSha256,
        exportBytes: BigInt(fields.exportBytes),
        exportFileName: fields.exportFileName,
        modelSha256: fields.modelSha256,
        ...evidenceColumns(fields.evidence),
        evaluationContractHash: fields.evaluationContractHash,
        snapshotSha256: exp.snapshotSha256,
        splitContractId: exp.splitContractId,
        settings: exp.settings,
        identity: JSON.stringify({ recipe: train.recipe, recipeVersion: train.recipeVersion, environmentId: train.environmentId, trainJobId: train.id }),
        targetId: exp.targetId,
        serving: JSON.stringify(serving.serving),
        latency: fields.latency ? JSON.stringify(fields.latency) : null,
      });
      if (exclusion) await tx.versionExclusion.create({ data: { versionId: row.id, ...exclusion, content: new Uint8Array(exclusion.content) } });
      await markExportIn(tx, row.id, stored.present, stored.present ? null : stored.reason);
      return row.id;
    });
    const row = await registryRepository(db).versionByIdOrThrow(versionId);
    // A new version wakes what watches the model (a promotion policy, open pages).
    publish({ type: "model.changed", modelId: row.modelId, projectId: exp.projectId });
    return { model: await modelView(db, await findModel(db, row.modelId)), version: versionView(row), created: true, exportNote };
  } catch (err) {
    // Two registrations racing: the unique (model, experiment) or (project, name) key lets one in.
    if ((err as { code?: string }).code === "P2002") {
      const model = modelId
        ? await findModel(db, modelId)
        : await registryRepository(db).modelByNameKey(exp.projectId, nameKey(input.newModelName!));
      const again = model ? await existingVersion(db, model.id, exp.id) : null;
      if (again) return again;
      throw conflict("Another registration changed this model at the same moment; try again.", { code: "register_race" });
    }
    throw err;
  }
}
