/**
 * Runs one short `tabular.predict` job on new rows: the rows (a CSV file) are staged into
 * This computer's store (`incoming/<sha>.part` + worker `put`, as dataset uploads do),
 * the job is admitted with the experiment's trained model referenced by its SHA-256,
 * awaited (bounded: a timeout cancels it and says so) and its predictions.parquet read
 * with hyparquet. A table of new rows also gets joined.csv from the job: the rows as the
 * file writes them beside their predictions, joined by the row ids the job itself read
 * (so the server never parses the file a second, different way). A refused input
 * (`schema_mismatch`) comes back with the recipe's own message, which names the columns.
 */
import { randomUUID } from "node:crypto";
import { renameSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { createHash } from "node:crypto";
import { WORKER_PROTOCOL } from "@/contracts/worker";
import type { Db } from "@/server/db/client";
import { unavailable } from "@/server/errors";
import { ensureBlobOn } from "@/server/datasets";
import { exportArchivePath } from "@/server/experiments/chain-results";
import { ExportInvalid, verifyExportArchive } from "@/server/exports/verify-export";
import { incomingDir, localTarget, partPath, workerHomeOf } from "@/server/datasets/local-store";
import { readOutputBytes, type OutputJob } from "@/server/jobs/read-output";
import { runJobToEnd } from "@/server/jobs/job-to-end";
import { targetsService } from "@/server/targets/targets.service";
import { toPredictionRows, type PredictionRow } from "./prediction-rows";

export const CSV_FORMAT = { format: "csv", delimiter: ",", encoding: "utf-8", header: true } as const;

/** Writes `bytes` into the local store; returns its SHA-256. */
export async function stageBytes(db: Db, bytes: Buffer, what: string): Promise<string> {
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const target = await localTarget(db);
  const home = workerHomeOf(target);
  mkdirSync(incomingDir(home), { recursive: true, mode: 0o700 });
  const tmp = `${partPath(home, sha256)}.${randomUUID()}.tmp`;
  writeFileSync(tmp, bytes, { mode: 0o600 });
  return stageFile(db, tmp, sha256, bytes.length, what);
}

/** Moves an already-written temp file to `incoming/<sha>.part` and asks the worker to `put` it. */
export async function stageFile(db: Db, tmpPath: string, sha256: string, size: number, what: string): Promise<string> {
  const target = await localTarget(db);
  const part = partPath(workerHomeOf(target), sha256);
  try {
    renameSync(tmpPath, part);
    await targetsService(db).execOn(target, { protocol: WORKER_PROTOCOL, op: "put", opId: `put:${randomUUID()}`, sha256, bytes: size });
  } catch (err) {
    rmSync(tmpPath, { force: true });
    rmSync(part, { force: true });
    throw unavailable(`${target.name} could not store ${what}: ${(err as Error).message}`);
  }
  return sha256;
}

export interface PredictOutcome {
  jobId: string;
  rows: PredictionRow[];
  classes: string[];
  seconds: number;
  /** The finished job, to read its other outputs (joined.csv). */
  output: OutputJob;
}

export async function runPredictJob(
  db: Db,
  a: { targetId: string; modelSha256: string; featuresSha256: string; timeoutMs: number; label: string; onAdmitted?: (jobId: string) => void },
): Promise<PredictOutcome> {
  const started = Date.now();
  // The file to predict on was stored on This computer; a server needs its own copy.
  await ensureBlobOn(db, await targetsService(db).requireTarget(a.targetId), a.featuresSha256);
  const detail = await runJobToEnd(db, {
    opId: `predict:${randomUUID()}`,
    targetId: a.targetId,
    recipe: "tabular",
    job: "predict",
    input: { model: `sha256:${a.modelSha256}`, features: `sha256:${a.featuresSha256}`, datasetFormat: CSV_FORMAT },
    label: a.label,
    timeoutMs: a.timeoutMs - (Date.now() - started),
    refusedWhen: (text) => /schema_mismatch/.test(text),
    onAdmitted: a.onAdmitted,
  });
  const output: OutputJob = { id: detail.id, targetId: detail.targetId, workerJobId: detail.workerJobId };
  const bytes = await readOutputBytes(db, output, "predictions.parquet");
  const { parquetReadObjects } = await import("hyparquet");
  const ab = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const records = (await parquetReadObjects({ file: ab })) as Record<string, unknown>[];
  const { rows, classes } = toPredictionRows(records);
  return { jobId: detail.id, rows, classes, seconds: Math.round((Date.now() - started) / 100) / 10, output };
}

/** The download of "Predict a file", as the job wrote it (text cells neutralised for spreadsheets). */
export async function readJoinedCsv(db: Db, out: PredictOutcome): Promise<string> {
  return (await readOutputBytes(db, out.output, "joined.csv")).toString("utf8");
}

/**
 * The export archive a prediction's model comes from, verified (hash and manifest) before
 * the model is used; UNAVAILABLE naming the `model` ("The model of …") when it is missing or damaged.
 */
export async function requireVerifiedExport(exportSha256: string, model: string): Promise<void> {
  try {
    await verifyExportArchive(exportArchivePath(exportSha256), exportSha256);
  } catch (err) {
    if (err instanceof ExportInvalid) throw unavailable(`${model} was not used: ${err.message}`);
    throw err;
  }
}
