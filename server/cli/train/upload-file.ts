/**
 * Streams a local file to the server as a raw request body, printing progress on stderr
 * (every 10 %): a dataset (POST /api/datasets/upload) or one base-model file
 * (POST /api/finetune/uploads). A model file is hashed here first and skipped when the
 * server holds those bytes already, so an interrupted folder upload resumes where it
 * stopped and a model sent twice travels once.
 */
import { createHash } from "node:crypto";
import { accessSync, constants, createReadStream, statSync } from "node:fs";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { CliError } from "../cli-error";
import { unreachableError, type Connection } from "../api-client";
import { jsonAnswer } from "@/server/cli/json-answer";

/** Uploads are plain HTTP requests: they need the server's address and credentials, not its tRPC client. */
export type HttpConnection = Pick<Connection, "url" | "headers">;

export interface UploadResult {
  datasetId: string;
  snapshotSha256: string;
  bytes: number;
  reused: boolean;
}

/** POST /api/finetune/uploads' answer: the blob a ZBaseModelSource names. */
export interface ModelUploadResult {
  sha256: string;
  bytes: number;
  /** The server held these bytes already (nothing, or nothing new, was sent). */
  reused: boolean;
}

/** The size of a regular file the CLI can read, or a CliError naming the problem. */
export function readableFileSize(file: string): number {
  try {
    const st = statSync(file);
    if (!st.isFile()) throw new CliError(`${file} is not a regular file.`, 1, "file_unreadable");
    accessSync(file, constants.R_OK);
    return st.size;
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw new CliError(`Cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, 1, "file_unreadable");
  }
}

/** Sends `file` as the body of POST `route` (path and query); returns the JSON answer of a 2xx. */
async function postFile(conn: HttpConnection, route: string, file: string, label: string, log: (l: string) => void): Promise<unknown> {
  const size = readableFileSize(file);
  let sent = 0;
  let lastPct = -10;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      sent += chunk.length;
      const pct = size ? Math.floor((sent / size) * 100) : 100;
      // Every 10 %, and always the end: a last chunk under 10 % must still say 100 %.
      if (pct >= lastPct + 10 || (sent === size && lastPct < 100)) {
        lastPct = pct;
        log(`uploading ${label}: ${pct}% (${sent} of ${size} bytes)`);
      }
      done(null, chunk);
    },
  });
  const body = Readable.toWeb(createReadStream(file).pipe(counter)) as ReadableStream<Uint8Array>;
  const res = await fetch(`${conn.url}${route}`, {
    method: "POST",
    headers: { ...conn.headers, "content-type": "application/octet-stream", "content-length": String(size) },
    body,
    duplex: "half",
  } as RequestInit & { duplex: "half" }).catch((err: unknown) => {
    throw unreachableError(err);
  });
  const answer = await jsonAnswer<{ error?: string }>(res);
  if (!res.ok) throw new CliError(`Upload of ${label} refused: ${answer.error ?? `HTTP ${res.status}`}`, 1, res.status === 401 ? "unauthorized" : "upload_refused");
  return answer;
}

/** Uploads a data file as a dataset of the project (a `.jsonl` one becomes a file of examples). */
export async function uploadFile(conn: Connection, projectId: string, file: string, log: (l: string) => void): Promise<UploadResult> {
  const query = new URLSearchParams({ projectId, fileName: path.basename(file) });
  return (await postFile(conn, `/api/datasets/upload?${query}`, file, path.basename(file), log)) as UploadResult;
}

/** Reserves a file as a holdout of the project (never a dataset): the holdout's view. */
export async function uploadHoldout(conn: HttpConnection, projectId: string, file: string, name: string | undefined, log: (l: string) => void): Promise<{ id: string; name: string; rows: number; sha256: string; reused?: boolean }> {
  const query = new URLSearchParams({ projectId, fileName: path.basename(file), ...(name ? { name } : {}) });
  return (await postFile(conn, `/api/holdouts/upload?${query}`, file, path.basename(file), log)) as { id: string; name: string; rows: number; sha256: string; reused?: boolean };
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash("sha256");
  await pipeline(createReadStream(file), hash);
  return hash.digest("hex");
}

/**
 * Uploads one base-model file (a .gguf, or one file of a model folder) into the server's
 * store with progress; `label` names it in the progress lines (default: its file name; a
 * folder's caller passes the path inside the folder). Returns the blob's sha256 and size.
 */
export async function uploadModelFile(conn: HttpConnection, projectId: string, file: string, log: (l: string) => void, label = path.basename(file)): Promise<ModelUploadResult> {
  const bytes = readableFileSize(file);
  log(`checking ${label} (${bytes} bytes)`);
  const sha256 = await sha256Of(file);
  const query = new URLSearchParams({ projectId, sha256 });
  const res = await fetch(`${conn.url}/api/finetune/uploads?${query}`, { headers: conn.headers }).catch((err: unknown) => {
    throw unreachableError(err);
  });
  const known = await jsonAnswer<{ present?: boolean; bytes?: number | null; error?: string }>(res);
  if (!res.ok) throw new CliError(`Looking up ${label} on the server failed: ${known.error ?? `HTTP ${res.status}`}`, 1, res.status === 401 ? "unauthorized" : "upload_refused");
  if (known.present && known.bytes === bytes) {
    log(`${label}: already on the server, not sent again`);
    return { sha256, bytes, reused: true };
  }
  const upload = new URLSearchParams({ projectId, fileName: path.basename(file) });
  return (await postFile(conn, `/api/finetune/uploads?${upload}`, file, label, log)) as ModelUploadResult;
}
