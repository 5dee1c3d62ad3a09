/**
 * Removing a version (retention): it stops counting against the project's registered-export
 * budget and can no longer be promoted or rolled back to; its row, its evidence and every
 * alias event that names it stay, so the history still reads. A version any alias points at
 * (selected, staging…) is refused. The archive file is kept: it is also the export of the
 * experiment the version came from, whose page still offers it for download.
 */
import type { Db } from "@/server/db/client";
import { badInput, conflict } from "@/server/errors";
import { transitionIn } from "@/server/lifecycle/transition";
import type { TRemoveVersionInput } from "./registry.schema";
import { findModel, findVersion, versionView, type VersionView } from "./registry-views";
import { versionStore } from "./version-store";

export async function removeVersion(db: Db, input: TRemoveVersionInput): Promise<VersionView> {
  const model = await findModel(db, input.modelId);
  const version = await findVersion(db, model.id, input.version);
  if (version.status === "removed") throw badInput(`Version ${version.number} of "${model.name}" was already removed.`, { code: "already_removed" });
  return db.$transaction(async (tx) => {
    // Read inside the transaction: an alias moved onto it since the page loaded must win.
    const aliases = await tx.modelAlias.findMany({ where: { modelId: model.id, versionId: version.id } });
    if (aliases.length) {
      const names = aliases.map((a) => a.name).join(", ");
      throw conflict(`Version ${version.number} of "${model.name}" is in use (${names}); move the alias to another version before removing it.`, { code: "version_in_use" });
    }
    await transitionIn(tx, versionStore, version.id, "removed", { reason: input.reason });
    return versionView(await tx.modelVersion.findUniqueOrThrow({ where: { id: version.id } }));
  });
}
