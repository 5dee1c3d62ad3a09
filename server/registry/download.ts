/** A version's export for download, verified (hash and manifest) right before it is sent. */
import type { Db } from "@/server/db/client";
import { conflict } from "@/server/errors";
import { exportArchivePath } from "@/server/experiments/chain-results";
import { verifyExportArchive } from "@/server/exports/verify-export";
import type { ExportDownload } from "@/server/exports/exports.service";
import { findModel, findVersion } from "./registry-views";

export async function versionExportDownload(db: Db, modelId: string, number: number): Promise<ExportDownload> {
  const model = await findModel(db, modelId);
  const v = await findVersion(db, model.id, number);
  if (v.status !== "registered") throw conflict(`Version ${v.number} of "${model.name}" has no export in managed storage (${v.status}).`, { code: "export_missing" });
  const file = exportArchivePath(v.exportSha256);
  const checked = await verifyExportArchive(file, v.exportSha256);
  return { path: file, sha256: checked.sha256, bytes: checked.bytes, fileName: v.exportFileName };
}
