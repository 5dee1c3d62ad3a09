/**
 * Reading a finished job's output files. The worker names the file's path in its home
 * (`fetch`); on This computer that path is read directly, from a server it is copied
 * over SFTP first. Bytes never travel inside a control request.
 */
import { mkdir, readFile, rename, rm, stat } from "node:fs/promises";
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import path from "node:path";
import type { Db } from "@/server/db/client";
import { unavailable } from "@/server/errors";
import { targetFor } from "@/server/targets/target-for";
import { targetsService } from "@/server/targets/targets.service";

export interface OutputJob {
  id: string;
  targetId: string;
  workerJobId: string | null;
}

async function locate(db: Db, job: OutputJob, relPath: string) {
  if (!job.workerJobId) throw unavailable(`Job ${job.id} has no outputs yet.`);
  const target = targetFor(await targetsService(db).requireTarget(job.targetId), db);
  const res = await target.exec("fetch", { jobId: job.workerJobId, path: relPath });
  return { ...res, target };
}

/** Runs `fn` on a local copy of the output (the file itself on This computer). */
async function withLocalFile<T>(db: Db, job: OutputJob, relPath: string, fn: (file: string, sha256: string) => Promise<T>): Promise<T> {
  const res = await locate(db, job, relPath);
  return res.target.withFile(res.path, (file) => fn(file, res.sha256));
}

export async function readOutputFile(db: Db, job: OutputJob, relPath: string): Promise<Buffer> {
  return withLocalFile(db, job, relPath, async (file, expected) => {
    const data = await readFile(file);
    const actual = createHash("sha256").update(data).digest("hex");
    if (actual !== expected) throw unavailable(`The copy of ${relPath} from job ${job.id} does not match its manifest.`);
    return data;
  });
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

/**
 * readOptionalOutputJson for a finished job, remembered by the job's output hash (its
 * outputs never change): the chain reads training.json on every advance after training,
 * and each read is a worker call (a process start, more over SSH). Bounded; null is not
 * remembered, so a read that failed is tried again.
 */
const REMEMBERED = new Map<string, unknown>();
const REMEMBER_AT_MOST = 200;
export async function readFinishedOutputJson<T = unknown>(db: Db, job: OutputJob & { outputSha256: string | null }, relPath: string): Promise<T | null> {
  if (!job.outputSha256) return readOptionalOutputJson<T>(db, job, relPath);
  const key = `${job.id}:${job.outputSha256}:${relPath}`;
  if (REMEMBERED.has(key)) return REMEMBERED.get(key) as T;
  const value = await readOptionalOutputJson<T>(db, job, relPath);
  if (value !== null) {
    if (REMEMBERED.size >= REMEMBER_AT_MOST) REMEMBERED.delete(REMEMBERED.keys().next().value!);
    REMEMBERED.set(key, value);
  }
  return value;
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
  await mkdir(destDir, { recursive: true, mode: 0o700 });
  const file = path.join(destDir, destName);
  const tmp = `${file}.part-${process.pid}`;
  const res = await locate(db, job, relPath);
  await res.target.pullFile(res.path, tmp);
  const sha256 = await sha256File(tmp);
  if (sha256 !== res.sha256) {
    await rm(tmp, { force: true });
    throw unavailable(`The copy of ${relPath} from job ${job.id} does not match its manifest (${sha256} ≠ ${res.sha256}).`);
  }
  await rename(tmp, file);
  return { sha256, bytes: (await stat(file)).size, file };
}
