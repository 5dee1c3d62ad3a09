/**
 * What removing a chosen set of versions frees, read from the retention preview: an
 * archive comes back only when no kept version and no unchosen removable version still
 * holds it (server/registry/retention.ts counts the same way).
 */
import type { Retention } from "./registry-types";

type Removable = Retention["removable"][number];

export function bytesFreedBy(chosen: ReadonlySet<string>, removable: readonly Removable[]): number {
  const held = new Set(removable.filter((r) => !chosen.has(r.versionId)).map((r) => r.exportSha256));
  const freed = new Map<string, number>();
  for (const r of removable) if (chosen.has(r.versionId) && !r.sharedWithKept && !held.has(r.exportSha256)) freed.set(r.exportSha256, r.exportBytes);
  return [...freed.values()].reduce((a, b) => a + b, 0);
}

export const versionLabel = (r: Pick<Removable, "modelName" | "number">) => `version ${r.number} of “${r.modelName}”`;
