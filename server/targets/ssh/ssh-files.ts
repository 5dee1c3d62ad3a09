/**
 * Moving files to and from a server's worker over SFTP, outside control requests (large
 * data never travels inside one). To a worker: the bytes go to `incoming/<sha256>.part`,
 * then the worker's `put` verifies the SHA-256 and moves the part into its store
 * atomically; the part's size is where an interrupted transfer resumes, and a part
 * never becomes a snapshot until its whole hash matches. From a worker: the path its
 * `fetch` named is copied here (the caller verifies the hash the worker reported).
 */
import { randomUUID } from "node:crypto";
import { WORKER_PROTOCOL } from "@/contracts/worker";
import type { Db } from "@/server/db/client";
import type { PushResult } from "../target";
import { targetsService } from "../targets.service";
import type { TargetRow } from "../targets.repository";
import { download, mkdirp, RESUME_OVERLAP_BYTES, uploadFrom, withSftp, type SftpSession } from "./sftp";
import { remoteLayout, sshConfigOf, sshConnectOptions } from "./ssh-target";

/** One SFTP session to an SSH computer; a failure is recorded on the computer (unreachable, host key). */
export async function sftpOn<T>(db: Db, t: TargetRow, fn: (s: SftpSession) => Promise<T>, timeoutMs?: number): Promise<T> {
  try {
    return await withSftp(await sshConnectOptions(db, t, timeoutMs), fn);
  } catch (err) {
    await targetsService(db).recordFailure(t, err);
    throw err;
  }
}

/** Makes the blob `sha256` (the local file) exist in an SSH computer's store. */
export async function pushBlobOverSsh(db: Db, t: TargetRow, localFile: string, sha256: string, bytes: number, onBytes?: (sent: number) => void): Promise<PushResult> {
  const put = () => targetsService(db).execOn(t, { protocol: WORKER_PROTOCOL, op: "put", opId: `put:${randomUUID()}`, sha256, bytes });
  const first = await put();
  if (first.complete) return { resumedFrom: bytes, sent: 0 };
  const offset = first.offset;
  const layout = remoteLayout(sshConfigOf(t).workerDir).worker;
  await sftpOn(db, t, async (s) => {
    await mkdirp(s, layout.incoming);
    const from = Math.max(0, offset - RESUME_OVERLAP_BYTES);
    let sent = from;
    await uploadFrom(s, localFile, layout.part(sha256), from, (n) => onBytes?.((sent += n)));
  });
  const done = await put();
  if (!done.complete) throw new Error(`the worker on ${t.name} has ${done.offset} of ${bytes} bytes of ${sha256} after the transfer`);
  return { resumedFrom: offset, sent: bytes - offset };
}

/** Copies a file the worker named (an absolute path on the server) to `localFile`. */
export async function pullFileOverSsh(db: Db, t: TargetRow, remotePath: string, localFile: string): Promise<void> {
  await sftpOn(db, t, (s) => download(s, remotePath, localFile));
}
