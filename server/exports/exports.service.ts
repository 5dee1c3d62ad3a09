/**
 * Export downloads: the archive of a succeeded experiment, verified (SHA-256 of the file
 * and every file against its manifest) right before it is sent.
 */
import { getDb, type Db } from "@/server/db/client";
import { conflict } from "@/server/errors";
import { exportArchivePath } from "@/server/experiments/chain-results";
import { experimentsService } from "@/server/experiments/experiments.service";
import { verifyExportArchive } from "./verify-export";
import { exportNames } from "@/server/experiments/export-names";

export interface ExportDownload {
  path: string;
  sha256: string;
  bytes: number;
  fileName: string;
}

export async function verifiedExportDownload(experimentId: string, db: Db = getDb()): Promise<ExportDownload> {
  const exp = await experimentsService(db).get(experimentId);
  if (!exp.exportSha256) throw conflict(`"${exp.name}" has no export (it is ${exp.status}); only a succeeded experiment has one.`);
  const path = exportArchivePath(exp.exportSha256);
  const v = await verifyExportArchive(path, exp.exportSha256);
  // The name the export recipe gave it (its top folder + .tar.gz), the one its model card
  // uses; results stored before it recorded names get the legacy name.
  const { fileName } = exportNames(exp.results?.export, exp.name, v.sha256);
  return { path, sha256: v.sha256, bytes: v.bytes, fileName };
}
