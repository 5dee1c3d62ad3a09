/**
 * Who holds an export archive in managed storage (artifacts/<sha256>/): the experiments that
 * made it and the registry versions that serve from it. One archive may be both (the same
 * bytes are stored once), so a delete on one side removes the file only when the other
 * holds nothing: deleting an experiment can never remove what a registered version
 * serves, and removing a version never takes what an experiment's page still offers.
 */
import { rm } from "node:fs/promises";
import path from "node:path";
import type { Db } from "@/server/db/client";
import { experimentsRepository } from "./experiments.repository";
import { exportArchivePath } from "./chain-results";

export interface ExportHolders {
  experiments: number;
  /** Versions not removed from the registry, by model name and number. */
  versions: { modelName: string; number: number }[];
}

export async function exportHolders(db: Db, sha256: string): Promise<ExportHolders> {
  return experimentsRepository(db).exportHolders(sha256);
}

/** "version 1 of Peng, version 2 of Peng": the registry versions that keep an archive. */
export const versionsWords = (versions: ExportHolders["versions"]) => versions.map((v) => `version ${v.number} of "${v.modelName}"`).join(", ");

/** Removes the archive when nothing holds it any more; true when it was removed. */
export async function removeExportIfUnheld(db: Db, sha256: string): Promise<boolean> {
  const holders = await exportHolders(db, sha256);
  if (holders.experiments > 0 || holders.versions.length > 0) return false;
  await rm(path.dirname(exportArchivePath(sha256)), { recursive: true, force: true });
  return true;
}
