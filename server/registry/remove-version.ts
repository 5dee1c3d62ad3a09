/**
 * Removing versions (retention): a removed version stops counting against the project's
 * registered-export budget and can no longer be promoted or rolled back to; its row, its
 * evidence and every alias event that names it stay, so the history still reads. A
 * version any alias points at (selected, staging…) or any deployment serves (its current
 * release, whatever its state: a stopped deployment can be started again) is refused. The
 * archive file goes once nothing holds it (export-holders.ts): an experiment that still
 * exists keeps it for its own download. Several versions (the retention sheet's choice)
 * go in one transaction: all or none.
 */
import type { Db } from "@/server/db/client";
import { badInput, conflict, notFound } from "@/server/errors";
import { removeExportIfUnheld } from "@/server/experiments/export-holders";
import { transitionIn, type Tx } from "@/server/lifecycle/transition";
import type { TRemoveVersionInput, TRemoveVersionsInput } from "./registry.schema";
import { findModel, findVersion, versionView, type VersionView } from "./registry-views";
import { registryRepository, type VersionRow } from "./registry.repository";
import { versionStore } from "./version-store";

/** Removes one version inside `tx`; reads its aliases there, so an alias moved onto it since the page loaded wins. */
async function removeIn(tx: Tx, modelName: string, row: VersionRow, reason: string): Promise<VersionView> {
  if (row.status === "removed") throw badInput(`Version ${row.number} of "${modelName}" was already removed.`, { code: "already_removed" });
  const repo = registryRepository(tx);
  const aliases = await repo.aliasesOnVersion(row.modelId, row.id);
  if (aliases.length) {
    const names = aliases.map((a) => a.name).join(", ");
    throw conflict(`Version ${row.number} of "${modelName}" is in use (${names}); move the alias to another version before removing it.`, { code: "version_in_use" });
  }
  const users = await repo.deploymentsServingVersion(row.modelId, row.id);
  if (users.length) {
    const names = users.map((d) => `"${d.name}" (${d.state})`).join(", ");
    throw conflict(`Version ${row.number} of "${modelName}" is served by ${names}; switch or delete the deployment before removing it.`, { code: "version_deployed" });
  }
  await transitionIn(tx, versionStore, row.id, "removed", { reason });
  return versionView(await repo.versionByIdOrThrow(row.id));
}

export async function removeVersion(db: Db, input: TRemoveVersionInput): Promise<VersionView> {
  const model = await findModel(db, input.modelId);
  const version = await findVersion(db, model.id, input.version);
  const removed = await db.$transaction(async (tx) => removeIn(tx, model.name, await registryRepository(tx).versionByIdOrThrow(version.id), input.reason));
  await removeExportIfUnheld(db, removed.exportSha256);
  return removed;
}

/** Removes every named version of the project, or none (the first refusal says which and why). */
export async function removeVersions(db: Db, input: TRemoveVersionsInput): Promise<VersionView[]> {
  const removed = await db.$transaction(async (tx) => {
    const repo = registryRepository(tx);
    const models = await repo.modelsOf(input.projectId);
    const names = new Map(models.map((m) => [m.id, m.name]));
    const rows = await repo.versionsByIdsIn(input.versionIds, models.map((m) => m.id));
    const missing = input.versionIds.filter((id) => !rows.some((r) => r.id === id));
    if (missing.length) throw notFound(`This project has no version ${missing[0]}${missing.length > 1 ? ` (and ${missing.length - 1} more)` : ""}; nothing was removed.`);
    const removed: VersionView[] = [];
    for (const row of rows) removed.push(await removeIn(tx, names.get(row.modelId) ?? "", row, input.reason));
    return removed;
  });
  for (const sha of new Set(removed.map((v) => v.exportSha256))) await removeExportIfUnheld(db, sha);
  return removed;
}
