/**
 * Copying a finished job's output file (the export archive) into the controller's
 * artifacts, verified against the job's manifest. JSON outputs are read with
 * server/jobs/read-output.ts; this is for files kept as bytes. Bytes never travel
 * inside a control request: the worker names the path, the target copies it.
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { Db } from "@/server/db/client";
import { unavailable } from "@/server/errors";
import { locateOutput, type OutputJob } from "@/server/jobs/read-output";

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
  const res = await locateOutput(db, job, relPath);
  await res.target.pullFile(res.path, tmp);
  const sha256 = await sha256File(tmp);
  if (sha256 !== res.sha256) {
    await rm(tmp, { force: true });
    throw unavailable(`The copy of ${relPath} from job ${job.id} does not match its manifest (${sha256} ≠ ${res.sha256}).`);
  }
  await rename(tmp, file);
  return { sha256, bytes: (await stat(file)).size, file };
}
