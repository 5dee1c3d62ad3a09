/**
 * Export downloads: the archive of a succeeded experiment, verified (SHA-256 of the file
 * and every file against its manifest) right before it is sent.
 */
import { getDb, type Db } from "@/server/db/client";
import { conflict } from "@/server/errors";
import { exportArchivePath } from "@/server/experiments/chain-results";
import { experimentsService } from "@/server/experiments/experiments.service";
import { verifyExportArchive } from "./verify-export";

export interface ExportDownload {
  path: string;
  sha256: string;
  bytes: number;
  fileName: string;
}

/** A file name for the download: the experiment's name in safe characters plus the short hash. */
export function exportFileName(experimentName: string, sha256: string): string {
  const base = experimentName.normalize("NFKD").replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60) || "model";
  return `${base}-${sha256.slice(0, 12)}.tar.gz`;
}

export async function verifiedExportDownload(experimentId: string, db: Db = getDb()): Promise<ExportDownload> {
  const exp = await experimentsService(db).get(experimentId);
  if (!exp.exportSha256) throw conflict(`"${exp.name}" has no export (it is ${exp.status}); only a succeeded experiment has one.`);
  const path = exportArchivePath(exp.exportSha256);
  const v = await verifyExportArchive(path, exp.exportSha256);
  return { path, sha256: v.sha256, bytes: v.bytes, fileName: exportFileName(exp.name, v.sha256) };
}
