/**
 * A version's managed export archive (it stays where the registry keeps it) copied into a
 * computer's worker store by its hash, for a job there to read: a serving job, or the
 * trusted evaluator comparing versions on a holdout.
 */
import { statSync } from "node:fs";
import type { Db } from "@/server/db/client";
import { unavailable } from "@/server/errors";
import { exportArchivePath } from "@/server/experiments/chain-results";
import { targetFor } from "@/server/targets/target-for";
import { targetsService } from "@/server/targets/targets.service";

export async function stageExportOn(db: Db, targetId: string, exportSha256: string): Promise<void> {
  const row = await targetsService(db).requireTarget(targetId);
  const archive = exportArchivePath(exportSha256);
  try {
    await targetFor(row, db).storeFile(archive, exportSha256, statSync(archive).size);
  } catch (err) {
    throw unavailable(`${row.name} could not store the model's export: ${(err as Error).message}`);
  }
}
