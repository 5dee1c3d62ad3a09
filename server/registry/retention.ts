/**
 * Retention preview: which versions of a project could be removed, what that frees, and
 * which of them (oldest first) would bring the registered exports within the project's
 * budget. A version any alias points at (selected, staging…) is never listed, nor is the
 * space of an export such a version shares. Exports are counted once per archive (by hash).
 */
import { formatBytes } from "@/contracts/vocabulary";
import type { Db } from "@/server/db/client";
import { registrySettings } from "./registry-settings";
import { registryRepository, type RegistryClient } from "./registry.repository";

export interface RemovableVersion {
  modelId: string;
  modelName: string;
  versionId: string;
  number: number;
  exportSha256: string;
  createdAt: Date;
  exportBytes: number;
  /** A kept (aliased) version holds the same archive: removing this one frees nothing. */
  sharedWithKept: boolean;
  /** What removing it alone frees (0 when another version shares its archive). */
  bytesFreed: number;
}

export interface RetentionPreview {
  projectId: string;
  registeredBytes: number;
  budgetBytes: number;
  kept: { versionId: string; modelName: string; number: number; aliases: string[] }[];
  /** Largest saving first. */
  removable: RemovableVersion[];
  /**
   * The oldest removable versions whose removal brings the project within its budget
   * (empty when it already is); `fits` is false when removing every removable version
   * would still not be enough.
   */
  toFitBudget: { versionIds: string[]; bytesFreed: number; fits: boolean };
}

export type RetentionRow = { id: string; modelId: string; number: number; exportSha256: string; exportBytes: bigint; createdAt: Date };

/** Bytes of the distinct exports the project's versions hold. */
export async function registeredBytes(db: RegistryClient, projectId: string): Promise<{ bytes: number; hashes: Set<string> }> {
  const repo = registryRepository(db);
  const models = await repo.modelIdsOf(projectId);
  const rows = await repo.liveExportSizes(models.map((m) => m.id));
  const sizes = new Map(rows.map((r) => [r.exportSha256, Number(r.exportBytes)]));
  return { bytes: [...sizes.values()].reduce((a, b) => a + b, 0), hashes: new Set(sizes.keys()) };
}

/**
 * Bytes freed by removing `chosen` (a subset of `removable`): an archive counts once it
 * has no version left that is kept or not chosen.
 */
function freedBy(chosen: RetentionRow[], removable: RetentionRow[], keptHashes: Set<string>): number {
  const chosenIds = new Set(chosen.map((v) => v.id));
  const stillHeld = new Set([...keptHashes, ...removable.filter((v) => !chosenIds.has(v.id)).map((v) => v.exportSha256)]);
  const sizes = new Map(chosen.filter((v) => !stillHeld.has(v.exportSha256)).map((v) => [v.exportSha256, Number(v.exportBytes)]));
  return [...sizes.values()].reduce((a, b) => a + b, 0);
}

/**
 * Space comes back per archive, so the plan takes whole groups of removable versions that
 * share one (an archive a kept version holds frees nothing and is never planned), the
 * group whose newest version is oldest first: old versions are the ones people expect to go.
 */
export function planToFit(removable: RetentionRow[], keptHashes: Set<string>, used: number, budget: number): RetentionPreview["toFitBudget"] {
  if (used <= budget) return { versionIds: [], bytesFreed: 0, fits: true };
  const groups = new Map<string, RetentionRow[]>();
  for (const v of removable) if (!keptHashes.has(v.exportSha256)) groups.set(v.exportSha256, [...(groups.get(v.exportSha256) ?? []), v]);
  const newest = (g: RetentionRow[]) => Math.max(...g.map((v) => v.createdAt.getTime()));
  const ordered = [...groups.values()].sort((a, b) => newest(a) - newest(b));
  const versionIds: string[] = [];
  let bytesFreed = 0;
  for (const g of ordered) {
    versionIds.push(...g.map((v) => v.id));
    bytesFreed += Number(g[0]!.exportBytes);
    if (used - bytesFreed <= budget) return { versionIds, bytesFreed, fits: true };
  }
  return { versionIds, bytesFreed, fits: false };
}

export async function retentionPreview(db: Db, projectId: string): Promise<RetentionPreview> {
  const repo = registryRepository(db);
  const models = await repo.modelsOf(projectId);
  const names = new Map(models.map((m) => [m.id, m.name]));
  const [versions, aliases, used, settings] = await Promise.all([
    repo.liveVersionsForRetention(models.map((m) => m.id)),
    repo.aliasesOfModels(models.map((m) => m.id)),
    registeredBytes(db, projectId),
    registrySettings(db),
  ]);
  const aliasesOf = (id: string) => aliases.filter((a) => a.versionId === id).map((a) => a.name);
  const kept = versions.filter((v) => aliasesOf(v.id).length > 0);
  const keptHashes = new Set(kept.map((v) => v.exportSha256));
  const removable = versions.filter((v) => aliasesOf(v.id).length === 0);
  return {
    projectId,
    registeredBytes: used.bytes,
    budgetBytes: settings.exportBytesPerProject,
    kept: kept.map((v) => ({ versionId: v.id, modelName: names.get(v.modelId) ?? "", number: v.number, aliases: aliasesOf(v.id) })),
    removable: removable
      .map((v) => ({
        modelId: v.modelId,
        modelName: names.get(v.modelId) ?? "",
        versionId: v.id,
        number: v.number,
        exportSha256: v.exportSha256,
        createdAt: v.createdAt,
        exportBytes: Number(v.exportBytes),
        sharedWithKept: keptHashes.has(v.exportSha256),
        bytesFreed: freedBy([v], removable, keptHashes),
      }))
      .sort((a, b) => b.bytesFreed - a.bytesFreed),
    toFitBudget: planToFit(removable, keptHashes, used.bytes, settings.exportBytesPerProject),
  };
}

/** 'version 3 of "Species classifier" (12 MiB)' for the first few removable versions. */
export function removableWords(preview: RetentionPreview, max = 5): string {
  if (!preview.removable.length) return "nothing can be removed: every version is selected or aliased";
  return preview.removable
    .slice(0, max)
    .map((r) => `version ${r.number} of "${r.modelName}" (${formatBytes(r.bytesFreed)})`)
    .join(", ");
}
