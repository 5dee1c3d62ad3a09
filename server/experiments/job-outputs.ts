/**
 * Reading a finished job's output files. The worker names the file's path in its home
 * (`fetch`); on This computer that path is read directly. Bytes never travel inside a
 * control request. Other kinds of computer copy the file first (SSH: SFTP, later).
 */
import { copyFile, mkdir, readFile, rename, stat } from "node:fs/promises";
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import path from "node:path";
import { WORKER_PROTOCOL } from "@/worker/protocol";
import type { Db } from "@/server/db/client";
import { unavailable } from "@/server/errors";
import { targetsService } from "@/server/targets/targets.service";

export interface OutputJob {
  id: string;
  targetId: string;
  workerJobId: string | null;
}

async function locate(db: Db, job: OutputJob, relPath: string) {
  if (!job.workerJobId) throw unavailable(`Job ${job.id} has no outputs yet.`);
  const targets = targetsService(db);
  const target = await targets.requireTarget(job.targetId);
  if (target.kind !== "local") throw unavailable(`Reading outputs from ${target.name} needs a file transfer this version lacks.`);
  const res = await targets.execOn(target, { protocol: WORKER_PROTOCOL, op: "fetch", jobId: job.workerJobId, path: relPath });
  return res;
}

export async function readOutputFile(db: Db, job: OutputJob, relPath: string): Promise<Buffer> {
  const res = await locate(db, job, relPath);
  return readFile(res.path);
}

export async function readOutputJson<T = unknown>(db: Db, job: OutputJob, relPath: string): Promise<T> {
  return JSON.parse((await readOutputFile(db, job, relPath)).toString("utf8")) as T;
}

/** Like readOutputJson, but null when the file does not exist (optional outputs). */
export async function readOptionalOutputJson<T = unknown>(db: Db, job: OutputJob, relPath: string): Promise<T | null> {
  try {
    return await readOutputJson<T>(db, job, relPath);
  } catch {
    return null;
  }
}

export function sha256File(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash("sha256");
    createReadStream(file)
      .on("data", (d) => hash.update(d))
      .on("error", reject)
      .on("end", () => resolve(hash.digest("hex")));
  });
}

/**
 * Copies one output file into `destDir` (temp name, hash check, rename), verifying it
 * against the SHA-256 the worker's manifest recorded. Returns its hash and size.
 */
export async function copyOutputFile(
  db: Db,
  job: OutputJob,
  relPath: string,
  destDir: string,
  destName: string,
): Promise<{ sha256: string; bytes: number; file: string }> {
  const res = await locate(db, job, relPath);
  await mkdir(destDir, { recursive: true, mode: 0o700 });
  const file = path.join(destDir, destName);
  const tmp = `${file}.part-${process.pid}`;
  await copyFile(res.path, tmp);
  const sha256 = await sha256File(tmp);
  if (sha256 !== res.sha256) {
    throw unavailable(`The copy of ${relPath} from job ${job.id} does not match its manifest (${sha256} ≠ ${res.sha256}).`);
  }
  await rename(tmp, file);
  return { sha256, bytes: (await stat(file)).size, file };
}
