/**
 * Export downloads: the archive of a succeeded experiment, verified (SHA-256 of the file
 * and every file against its manifest) right before it is sent.
 */
import { getDb, type Db } from "@/server/db/client";
import { z } from "zod";
import { parseStoredJson } from "@/server/db/stored-json";
import { conflict, notFound } from "@/server/errors";
import { exportArchivePath } from "@/server/experiments/chain-results";
import { experimentsRepository } from "@/server/experiments/experiments.repository";
import { verifyExportArchive } from "./verify-export";
import { exportNames } from "@/server/experiments/export-names";

/** The export names every kind of experiment's results carry (experiments/export-names.ts). */
const ZStoredExport = z.object({ export: z.unknown() });

export interface ExportDownload {
  path: string;
  sha256: string;
  bytes: number;
  fileName: string;
}

export async function verifiedExportDownload(experimentId: string, db: Db = getDb()): Promise<ExportDownload> {
  // The row, not a view: a tabular experiment and a fine-tuning one keep their export alike.
  const exp = await experimentsRepository(db).find(experimentId);
  if (!exp) throw notFound(`There is no experiment with id ${experimentId}. It may have been deleted.`);
  if (!exp.exportSha256) throw conflict(`"${exp.name}" has no export (it is ${exp.status}); only a succeeded experiment has one.`);
  const path = exportArchivePath(exp.exportSha256);
  const v = await verifyExportArchive(path, exp.exportSha256);
  // The name the export recipe gave it (its top folder + .tar.gz), the one its model card
  // uses; results stored before it recorded names get the legacy name.
  const { fileName } = exportNames(parseStoredJson(ZStoredExport, exp.results)?.export, exp.name, v.sha256);
  return { path, sha256: v.sha256, bytes: v.bytes, fileName };
}
