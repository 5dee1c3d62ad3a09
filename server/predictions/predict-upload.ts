/**
 * Receiving a "Predict a file" upload: the request body is streamed into This computer's
 * `incoming/` (hashed, capped at PREDICT_FILE_MAX_BYTES, checked as UTF-8 CSV text on the
 * way) so the predict job can read it from the worker's store without a second copy.
 */
import { rm } from "node:fs/promises";
import { z } from "zod";
import { incomingDir, localTarget, workerHomeOf } from "@/server/datasets/local-store";
import { streamUploadToFile } from "@/server/datasets/upload-stream";
import type { Db } from "@/server/db/client";
import { badInput } from "@/server/errors";
import { PREDICT_FILE_MAX_BYTES } from "./predictions.schema";

/** The query of POST /api/experiments/<id>/predict. */
export const ZPredictFileQuery = z.strictObject({
  fileName: z.string().trim().min(1).max(255).refine((n) => !/[\/\\\0]/.test(n), "A file name cannot contain / or \\.").default("rows.csv"),
});

export interface ReceivedFile {
  tmpPath: string;
  sha256: string;
  bytes: number;
  fileName: string;
}

export interface PredictUpload {
  fileName: string;
  body: AsyncIterable<Uint8Array> | null;
  /** Content-Length, when the client sent one: fewer bytes means an interrupted upload. */
  contentLength: number | null;
}

/** Streams the upload to a temp file in incoming/; the caller owns (and removes) it. */
export async function receivePredictFile(db: Db, u: PredictUpload): Promise<ReceivedFile> {
  if (!u.body) throw badInput("Send the CSV file as the request body.", { code: "no_body" });
  const home = workerHomeOf(await localTarget(db));
  const up = await streamUploadToFile(u.body, {
    dir: incomingDir(home),
    fileName: u.fileName,
    maxBytes: PREDICT_FILE_MAX_BYTES,
    expectedBytes: u.contentLength,
    content: { shape: "table", encoding: "utf-8", maxLineBytes: 10 * 1024 * 1024, maxColumns: 10_000 },
  });
  if (up.kind !== "text") {
    await rm(up.tmpPath, { force: true });
    throw badInput(`${u.fileName} is not a CSV text file (it looks like ${up.kind}).`, { code: "not_text" });
  }
  return { tmpPath: up.tmpPath, sha256: up.sha256, bytes: up.bytes, fileName: u.fileName };
}
