/** Streams a local file to POST /api/datasets/upload, printing progress on stderr. */
import { accessSync, constants, createReadStream, statSync } from "node:fs";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { CliError } from "../cli-error";
import { unreachableError, type Connection } from "../api-client";

export interface UploadResult {
  datasetId: string;
  snapshotSha256: string;
  bytes: number;
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

export async function uploadFile(conn: Connection, projectId: string, file: string, log: (l: string) => void): Promise<UploadResult> {
  const size = readableFileSize(file);
  let sent = 0;
  let lastPct = -10;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      sent += chunk.length;
      const pct = size ? Math.floor((sent / size) * 100) : 100;
      if (pct >= lastPct + 10) {
        lastPct = pct;
        log(`uploading ${path.basename(file)}: ${pct}% (${sent} of ${size} bytes)`);
      }
      done(null, chunk);
    },
  });
  const body = Readable.toWeb(createReadStream(file).pipe(counter)) as ReadableStream<Uint8Array>;
  const query = new URLSearchParams({ projectId, fileName: path.basename(file) });
  const res = await fetch(`${conn.url}/api/datasets/upload?${query}`, {
    method: "POST",
    headers: { ...conn.headers, "content-type": "application/octet-stream", "content-length": String(size) },
    body,
    duplex: "half",
  } as RequestInit & { duplex: "half" }).catch((err: unknown) => {
    throw unreachableError(err);
  });
  const answer = (await res.json().catch(() => ({}))) as Partial<UploadResult> & { error?: string };
  if (!res.ok) throw new CliError(`Upload refused: ${answer.error ?? `HTTP ${res.status}`}`, 1, res.status === 401 ? "unauthorized" : "upload_refused");
  return answer as UploadResult;
}
