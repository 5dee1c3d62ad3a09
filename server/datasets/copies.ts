/**
 * Copies of This computer's blobs (dataset snapshots, files to predict on) on other
 * computers. Uploads land in This computer's store first; a job on a server needs the
 * blob in that server's store, so it is pushed there before the job is admitted
 * (resumable, verified by the worker's `put`; see server/targets/ssh/ssh-files.ts).
 */
import { existsSync, statSync } from "node:fs";
import type { Db } from "@/server/db/client";
import { unavailable } from "@/server/errors";
import type { StoreResult } from "@/server/targets/target";
import { targetFor } from "@/server/targets/target-for";
import { targetsRepository, type TargetRow } from "@/server/targets/targets.repository";
import { datasetsRepository } from "./datasets.repository";
import { blobPath, localTarget, workerHomeOf } from "./local-store";

/** Makes the blob (in This computer's store) exist where `target`'s jobs read it; a copy of its own is recorded. */
export async function ensureBlobOn(db: Db, target: TargetRow, sha256: string, onBytes?: (sent: number, total: number) => void): Promise<StoreResult> {
  const file = blobPath(workerHomeOf(await localTarget(db)), sha256);
  if (!existsSync(file)) throw unavailable(`This computer no longer has the file ${sha256.slice(0, 12)}… to send to ${target.name}.`);
  const bytes = statSync(file).size;
  const res = await targetFor(target, db).storeFile(file, sha256, bytes, onBytes && ((sent) => onBytes(sent, bytes)));
  if (!res.ownCopy) return res;
  const workerId = (await targetsRepository(db).find(target.id))?.workerId;
  const repo = datasetsRepository(db);
  if (workerId && (await repo.snapshots.find(sha256))) await repo.snapshots.addCopy(sha256, workerId, target.id);
  return res;
}

/** Computers that hold a copy of the blob besides the original in This computer's store (named in a delete preview). */
export async function serverCopiesOf(db: Db, sha256: string): Promise<string[]> {
  const copies = await datasetsRepository(db).snapshots.copies(sha256);
  const origin = copies.length ? (await targetsRepository(db).findLocal())?.id : undefined;
  const names: string[] = [];
  for (const c of copies) {
    if (c.targetId === origin) continue;
    const row = await targetsRepository(db).find(c.targetId);
    if (row) names.push(row.name);
  }
  return names;
}

/**
 * Asks each computer holding the blob to remove it (its worker's `gc`, which never
 * removes one an active job reads). Best effort: a computer that does not answer keeps
 * its copy, and what stayed where, and why, is returned.
 */
export async function removeCopies(db: Db, sha256: string): Promise<{ computer: string; reason: string }[]> {
  const left: { computer: string; reason: string }[] = [];
  for (const c of await datasetsRepository(db).snapshots.copies(sha256)) {
    const row = await targetsRepository(db).find(c.targetId);
    if (!row) continue;
    try {
      const kept = (await targetFor(row, db).removeBlobs([sha256])).filter((r) => r.outcome === "in_use");
      if (kept.length > 0) left.push({ computer: row.name, reason: `a job on ${row.name} is reading it` });
    } catch (err) {
      left.push({ computer: row.name, reason: (err as Error).message });
    }
  }
  return left;
}

/**
 * Makes a blob that `from` holds (a snapshot taken there: a schedule's file on a server)
 * exist in This computer's store too, where the data jobs (profile, checks, split) read
 * it. Pulled through a temporary file the transport removes, stored by the local worker's
 * `put` (which checks the hash); nothing happens when it is already here.
 */
export async function ensureBlobHere(db: Db, from: TargetRow, sha256: string, bytes: number): Promise<void> {
  const here = await localTarget(db);
  if (existsSync(blobPath(workerHomeOf(here), sha256))) return;
  const source = targetFor(from, db);
  await source.withFile(source.layout.blob(sha256), (file) => targetFor(here, db).storeFile(file, sha256, bytes));
  const repo = datasetsRepository(db);
  await repo.snapshots.ensure(sha256, bytes);
  if (here.workerId) await repo.snapshots.addCopy(sha256, here.workerId, here.id);
}
