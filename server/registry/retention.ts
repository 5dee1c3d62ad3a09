/**
 * Retention preview: which versions of a project could be removed, and what that frees.
 * A version any alias points at (selected, staging…) is never listed, nor is the space of
 * an export such a version shares. Exports are counted once per archive (by hash).
 */
import { formatBytes } from "@/contracts/vocabulary";
import type { Db } from "@/server/db/client";
import type { Tx } from "@/server/lifecycle/transition";
import { registrySettings } from "./registry-settings";

export interface RemovableVersion {
  modelId: string;
  modelName: string;
  versionId: string;
  number: number;
  exportSha256: string;
  /** What removing it (and its export, when no kept version shares it) frees. */
  bytesFreed: number;
}

export interface RetentionPreview {
  projectId: string;
  registeredBytes: number;
  budgetBytes: number;
  kept: { versionId: string; modelName: string; number: number; aliases: string[] }[];
  removable: RemovableVersion[];
}

/** Bytes of the distinct exports the project's versions hold. */
export async function registeredBytes(db: Db | Tx, projectId: string): Promise<{ bytes: number; hashes: Set<string> }> {
  const models = await db.registeredModel.findMany({ where: { projectId }, select: { id: true } });
  const rows = await db.modelVersion.findMany({
    where: { modelId: { in: models.map((m) => m.id) }, status: { not: "removed" } },
    select: { exportSha256: true, exportBytes: true },
  });
  const sizes = new Map(rows.map((r) => [r.exportSha256, Number(r.exportBytes)]));
  return { bytes: [...sizes.values()].reduce((a, b) => a + b, 0), hashes: new Set(sizes.keys()) };
}

export async function retentionPreview(db: Db, projectId: string): Promise<RetentionPreview> {
  const models = await db.registeredModel.findMany({ where: { projectId } });
  const names = new Map(models.map((m) => [m.id, m.name]));
  const [versions, aliases, used, settings] = await Promise.all([
    db.modelVersion.findMany({ where: { modelId: { in: models.map((m) => m.id) }, status: { not: "removed" } }, orderBy: [{ modelId: "asc" }, { number: "asc" }] }),
    db.modelAlias.findMany({ where: { modelId: { in: models.map((m) => m.id) } } }),
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
      .map((v) => {
        const shared = keptHashes.has(v.exportSha256) || removable.some((o) => o.id < v.id && o.exportSha256 === v.exportSha256);
        return {
          modelId: v.modelId,
          modelName: names.get(v.modelId) ?? "",
          versionId: v.id,
          number: v.number,
          exportSha256: v.exportSha256,
          bytesFreed: shared ? 0 : Number(v.exportBytes),
        };
      })
      .sort((a, b) => b.bytesFreed - a.bytesFreed),
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
