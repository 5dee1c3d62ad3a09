/**
 * Copies of This computer's blobs (dataset snapshots, files to predict on) on other
 * computers. Uploads land in This computer's store first; a job on a server needs the
 * blob in that server's store, so it is pushed there before the job is admitted
 * (resumable, verified by the worker's `put`; see server/targets/target-files.ts).
 */
import { existsSync, statSync } from "node:fs";
import type { Db } from "@/server/db/client";
import { unavailable } from "@/server/errors";
import { pushBlob, type PushResult } from "@/server/targets/target-files";
import { targetsRepository, type TargetRow } from "@/server/targets/targets.repository";
import { datasetsRepository } from "./datasets.repository";
import { blobPath, localTarget, workerHomeOf } from "./local-store";

/** Makes the blob exist on `target`; nothing to do on This computer. */
export async function ensureBlobOn(db: Db, target: TargetRow, sha256: string, onBytes?: (sent: number, total: number) => void): Promise<PushResult | null> {
  if (target.kind === "local") return null;
  const file = blobPath(workerHomeOf(await localTarget(db)), sha256);
  if (!existsSync(file)) throw unavailable(`This computer no longer has the file ${sha256.slice(0, 12)}… to send to ${target.name}.`);
  const bytes = statSync(file).size;
  const res = await pushBlob(db, target, file, sha256, bytes, onBytes && ((sent) => onBytes(sent, bytes)));
  const workerId = (await targetsRepository(db).find(target.id))?.workerId;
  const repo = datasetsRepository(db);
  if (workerId && (await repo.snapshots.find(sha256))) await repo.snapshots.addCopy(sha256, workerId, target.id);
  return res;
}
