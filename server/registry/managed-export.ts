/**
 * A version's export in managed storage (artifacts/<sha256>/export.tar.gz, where the
 * experiment's chain already put it): verified by hash and manifest; a missing or damaged
 * archive is restored from the worker that made it (the exporting job's output, pulled and
 * checked against its manifest and the recorded hash) and verified again. When neither
 * works the version's export is missing, and it cannot be promoted.
 */
import { mkdir, rename } from "node:fs/promises";
import path from "node:path";
import type { Db } from "@/server/db/client";
import { exportArchivePath } from "@/server/experiments/chain-results";
import { copyOutputFile } from "@/server/experiments/job-outputs";
import { verifyExportArchive } from "@/server/exports/verify-export";
import { jobsRepository } from "@/server/jobs/jobs.repository";

export type ManagedExport = { present: true; restored: boolean; bytes: number } | { present: false; reason: string };

const words = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * Makes sure the archive with `sha256` is in managed storage, restoring it from the job that
 * made it (`exportJobOpId`: the package step of a tabular chain, the export step of a
 * fine-tune) if needed.
 */
export async function ensureManagedExport(db: Db, sha256: string, exportJobOpId: string | null): Promise<ManagedExport> {
  const file = exportArchivePath(sha256);
  let damage: string;
  try {
    const v = await verifyExportArchive(file, sha256);
    return { present: true, restored: false, bytes: v.bytes };
  } catch (err) {
    damage = words(err);
  }
  const job = exportJobOpId ? await jobsRepository(db).findByOpId(exportJobOpId) : null;
  if (!job || job.state !== "succeeded") return { present: false, reason: `${damage}; the job that made it is gone, so it cannot be restored.` };
  try {
    const incoming = path.join(path.dirname(path.dirname(file)), "incoming");
    const copied = await copyOutputFile(db, job, "export.tar.gz", incoming, `${sha256}.restore.tar.gz`);
    if (copied.sha256 !== sha256) return { present: false, reason: `${damage}; the worker's copy is another archive (${copied.sha256}).` };
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    await rename(copied.file, file);
    const v = await verifyExportArchive(file, sha256);
    return { present: true, restored: true, bytes: v.bytes };
  } catch (err) {
    return { present: false, reason: `${damage}; restoring it from the worker failed: ${words(err)}` };
  }
}
