/**
 * Base-model files uploaded for fine-tuning (POST /api/finetune/uploads): one .gguf file,
 * or one file of a model folder per request, streamed into This computer's store by
 * SHA-256 (store-upload.ts: never held in memory, stored once). The answer's sha256 is what
 * ZBaseModelSource names (gguf_upload / folder_upload); the chain pushes each blob to a
 * server with ensureBlobOn before import_base.
 *
 * Each stored file is recorded as a Snapshot row with its copies (no dataset uses it), so
 * the controller knows the blob and where copies are; a dataset delete does not remove a
 * blob an experiment names as its base model (datasets.service deletePreview).
 * Limit: MODEL_UPLOAD_MAX_BYTES per file (a 70B model in fp16 is sharded below it).
 */
import { open } from "node:fs/promises";
import { existsSync, statSync } from "node:fs";
import { z } from "zod";
import { getDb, type Db } from "@/server/db/client";
import { datasetsRepository } from "@/server/datasets/datasets.repository";
import { ZFileName, ZSha256 } from "@/server/datasets/datasets.schema";
import { blobPath, localTarget, workerHomeOf } from "@/server/datasets/local-store";
import { storeUpload } from "@/server/datasets/store-upload";
import { badInput } from "@/server/errors";
import { projectsService } from "@/server/projects/projects.service";
import { settingsService } from "@/server/settings/settings.service";
import { targetsService } from "@/server/targets/targets.service";

/** One file of a base model at most (GGUF files and safetensors shards are below it). */
export const MODEL_UPLOAD_MAX_BYTES = 64 * 1024 ** 3;

const ZId = z.string().min(1).max(64);
/** Query string of POST /api/finetune/uploads (the body is the raw file). */
export const ZModelUploadQuery = z.strictObject({ projectId: ZId, fileName: ZFileName });
export type TModelUploadQuery = z.input<typeof ZModelUploadQuery>;
/** Query string of GET /api/finetune/uploads: is this file stored already? */
export const ZModelFileQuery = z.strictObject({ projectId: ZId, sha256: ZSha256 });
export type TModelFileQuery = z.input<typeof ZModelFileQuery>;

export interface ModelUploadResult {
  sha256: string;
  bytes: number;
  /** The same bytes were stored already (by an earlier upload or another file). */
  reused: boolean;
}

export interface ModelFileStatus {
  sha256: string;
  /** Stored on This computer: an upload of these bytes can be skipped. */
  present: boolean;
  bytes: number | null;
}

const GGUF_MAGIC = Buffer.from("GGUF");

/**
 * Whether a name says GGUF as the loaders read it: case, and trailing dots and spaces
 * (which some file systems drop), do not hide it (`x.GGUF.` is a GGUF name).
 */
export const namesGguf = (fileName: string) => /\.gguf[.\s]*$/i.test(fileName);

async function refuseFakeGguf(fileName: string, tmpPath: string): Promise<void> {
  if (!namesGguf(fileName)) return;
  const file = await open(tmpPath, "r");
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await file.read(head, 0, 4, 0);
    if (bytesRead === 4 && head.equals(GGUF_MAGIC)) return;
  } finally {
    await file.close();
  }
  throw badInput(`${fileName} is not a GGUF file (it does not start with the GGUF magic bytes); nothing was stored. Choose the .gguf file llama.cpp or Ollama wrote, or a model folder.`, {
    code: "not_a_model",
  });
}

async function storeModelFile(db: Db, raw: TModelUploadQuery, body: AsyncIterable<Uint8Array>, contentLength: number | null): Promise<ModelUploadResult> {
  const q = ZModelUploadQuery.parse(raw);
  await projectsService(db).get(q.projectId);
  const faults = await settingsService(db).uploadFaults();
  const up = await storeUpload(
    db,
    body,
    { fileName: q.fileName, maxBytes: MODEL_UPLOAD_MAX_BYTES, capHint: " for one model file", expectedBytes: contentLength, content: null, enospcAfterBytes: faults.enospcAfterBytes },
    (tmp) => refuseFakeGguf(q.fileName, tmp),
  );
  const repo = datasetsRepository(db);
  await repo.snapshots.ensure(up.sha256, up.bytes);
  const workerId = up.target.workerId ?? (await targetsService(db).freshProbe(up.target.id, 300_000)).probe.workerId;
  await repo.snapshots.addCopy(up.sha256, workerId, up.target.id);
  return { sha256: up.sha256, bytes: up.bytes, reused: up.reused };
}

async function modelFileStatus(db: Db, raw: TModelFileQuery): Promise<ModelFileStatus> {
  const q = ZModelFileQuery.parse(raw);
  await projectsService(db).get(q.projectId);
  const file = blobPath(workerHomeOf(await localTarget(db)), q.sha256);
  const present = existsSync(file);
  return { sha256: q.sha256, present, bytes: present ? statSync(file).size : null };
}

export function modelUploads(db: Db = getDb()) {
  return {
    store: (q: TModelUploadQuery, body: AsyncIterable<Uint8Array>, contentLength: number | null) => storeModelFile(db, q, body, contentLength),
    status: (q: TModelFileQuery) => modelFileStatus(db, q),
  };
}
