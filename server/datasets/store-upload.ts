/**
 * An upload into This computer's store, by SHA-256: the body is streamed into
 * `<workerHome>/incoming/upload-*.tmp` while it is hashed (and checked, when asked),
 * renamed to `incoming/<sha256>.part`, and handed to the local worker's `put`, which
 * verifies it and moves it into the store atomically. Bytes already stored are stored
 * once (`reused`). Nothing is left in incoming/ on any failure.
 */
import { existsSync, renameSync, rmSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { WORKER_PROTOCOL } from "@/contracts/worker";
import type { Db } from "@/server/db/client";
import { badInput, unavailable } from "@/server/errors";
import { targetsService } from "@/server/targets/targets.service";
import type { TargetRow } from "@/server/targets/targets.repository";
import { WorkerRefused, WorkerUnreachable } from "@/server/targets/transport";
import { blobPath, incomingDir, localTarget, partPath, workerHomeOf } from "./local-store";
import { streamUploadToFile, type StreamUploadOptions, type StreamedUpload } from "./upload-stream";

export interface StoredUpload extends Omit<StreamedUpload, "tmpPath"> {
  /** The bytes were in the store already. */
  reused: boolean;
  target: TargetRow;
}

export type StoreUploadOptions = Omit<StreamUploadOptions, "dir">;

/** A refusal or silence of the worker, in words. */
export function workerTrouble(err: unknown, what: string, targetName: string, hints: Record<string, string> = {}): Error {
  if (err instanceof WorkerRefused) {
    const hint = hints[err.code];
    return badInput(`${targetName} refused ${what}: ${err.message}.${hint ? ` ${hint}` : ""}`, { code: err.code });
  }
  if (err instanceof WorkerUnreachable) return unavailable(`${targetName} did not answer while ${what}: ${err.message}`);
  return err as Error;
}

/**
 * Streams `body` into the store; `check` (optional) sees the temp file before it is stored
 * and may throw to refuse it (a .gguf that is not GGUF).
 */
export async function storeUpload(db: Db, body: AsyncIterable<Uint8Array>, opts: StoreUploadOptions, check?: (tmpPath: string) => Promise<void>): Promise<StoredUpload> {
  const target = await localTarget(db);
  const home = workerHomeOf(target);
  const up = await streamUploadToFile(body, { ...opts, dir: incomingDir(home) });
  const part = partPath(home, up.sha256);
  try {
    await check?.(up.tmpPath);
    const reused = existsSync(blobPath(home, up.sha256));
    renameSync(up.tmpPath, part);
    await targetsService(db).execOn(target, { protocol: WORKER_PROTOCOL, op: "put", opId: `put:${randomUUID()}`, sha256: up.sha256, bytes: up.bytes });
    // Known bytes: put answers "complete" from the existing blob and leaves our part.
    rmSync(part, { force: true });
    return { sha256: up.sha256, bytes: up.bytes, kind: up.kind, reused, target };
  } catch (err) {
    rmSync(up.tmpPath, { force: true });
    rmSync(part, { force: true });
    throw workerTrouble(err, `storing ${opts.fileName}`, target.name);
  }
}
