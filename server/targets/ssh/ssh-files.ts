/**
 * Moving files to and from a computer's worker, outside control requests (large data
 * never travels inside one). To a worker: the bytes go to `incoming/<sha256>.part`,
 * then the worker's `put` verifies the SHA-256 and moves the part into its store
 * atomically; the part's size is where an interrupted transfer resumes, and a part
 * never becomes a snapshot until its whole hash matches. From a worker: the path its
 * `fetch` named is copied here (the caller verifies the hash the worker reported).
 */
import { copyFile } from "node:fs/promises";
import { randomUUID } from "node:crypto";
import { WORKER_PROTOCOL } from "@/contracts/worker";
import type { Db } from "@/server/db/client";
import { sshConfigOf, remoteLayout, sshConnectOptions } from "./ssh/ssh-target";
import { download, mkdirp, removeTree, RESUME_OVERLAP_BYTES, statOrNull, uploadFrom, withSftp, type SftpSession } from "./ssh/sftp";
import { targetsService } from "./targets.service";
import type { TargetRow } from "./targets.repository";

export interface PushResult {
  /** Bytes already there from an earlier, interrupted transfer. */
  resumedFrom: number;
  /** Bytes sent now. */
  sent: number;
}

/** One SFTP session to an SSH computer; a failure is recorded on the computer (unreachable, host key). */
export async function sftpOn<T>(db: Db, t: TargetRow, fn: (s: SftpSession) => Promise<T>, timeoutMs?: number): Promise<T> {
  try {
    return await withSftp(await sshConnectOptions(db, t, timeoutMs), fn);
  } catch (err) {
    await targetsService(db).recordFailure(t, err);
    throw err;
  }
}

/**
 * Makes the blob `sha256` (the local file) exist in an SSH computer's store. This
 * computer shares its store with the controller and needs no copy (datasets/copies.ts).
 */
export async function pushBlob(db: Db, t: TargetRow, localFile: string, sha256: string, bytes: number, onBytes?: (sent: number) => void): Promise<PushResult> {
  const put = () => targetsService(db).execOn(t, { protocol: WORKER_PROTOCOL, op: "put", opId: `put:${randomUUID()}`, sha256, bytes });
  const first = await put();
  if (first.complete) return { resumedFrom: bytes, sent: 0 };
  const offset = first.offset;
  const layout = remoteLayout(sshConfigOf(t).workerDir);
  await sftpOn(db, t, async (s) => {
    await mkdirp(s, `${layout.home}/incoming`);
    const from = Math.max(0, offset - RESUME_OVERLAP_BYTES);
    let sent = from;
    await uploadFrom(s, localFile, layout.part(sha256), from, (n) => onBytes?.((sent += n)));
  });
  const done = await put();
  if (!done.complete) throw new Error(`the worker on ${t.name} has ${done.offset} of ${bytes} bytes of ${sha256} after the transfer`);
  return { resumedFrom: offset, sent: bytes - offset };
}

/** Copies a file the worker named (an absolute path on its machine) to `localFile`. */
export async function pullFile(db: Db, t: TargetRow, remotePath: string, localFile: string): Promise<void> {
  if (t.kind === "local") return copyFile(remotePath, localFile);
  await sftpOn(db, t, (s) => download(s, remotePath, localFile));
}

/**
 * Removes one blob from a server's store over SFTP (This computer's store is handled by
 * the datasets domain). The path is built from a validated hash inside the worker's
 * store, never from anything a user typed. Absent is fine.
 */
export async function removeRemoteBlob(db: Db, t: TargetRow, sha256: string): Promise<void> {
  if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error(`not a SHA-256: ${sha256}`);
  const blob = `${remoteLayout(sshConfigOf(t).workerDir).home}/store/${sha256.slice(0, 2)}/${sha256}`;
  await sftpOn(db, t, async (s) => {
    if (await statOrNull(s, blob)) await removeTree(s, blob);
  });
}
