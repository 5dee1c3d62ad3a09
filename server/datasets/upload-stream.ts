/**
 * Streams an upload into a temp file while hashing it (SHA-256) and checking its content,
 * never holding it whole in memory. Refuses — and removes the partial file — as soon as
 * the stream passes the size cap, the content checks fail, the disk fills, or the
 * stream ends early (client gone, or fewer bytes than Content-Length announced).
 *
 * `enospcAfterBytes` is a test hook (Setting "test.uploadFaults"): the writer fails with
 * a real-looking ENOSPC error after that many bytes.
 */
import { createHash, randomUUID } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import { open } from "node:fs/promises";
import path from "node:path";
import { badInput, DomainError } from "@/server/errors";
import { formatBytes } from "@/contracts/vocabulary";
import { ContentChecker, type ContentLimits, type SniffedKind } from "./content-check";

export interface StreamUploadOptions {
  dir: string;
  fileName: string;
  maxBytes: number;
  /** Checks on the bytes as they arrive; null for a file that is not text (a model's weights). */
  content: ContentLimits | null;
  /** Where the cap is set, in words, e.g. " (Settings → Data)"; appended to the too-large message. */
  capHint?: string;
  /** Content-Length, when the client sent one: fewer bytes means an interrupted upload. */
  expectedBytes?: number | null;
  enospcAfterBytes?: number;
}

export interface StreamedUpload {
  tmpPath: string;
  sha256: string;
  bytes: number;
  /** What the content checks saw; null when none ran. */
  kind: SniffedKind | null;
}

export class UploadInterrupted extends DomainError {
  constructor(message: string) {
    super("BAD_INPUT", message, { code: "interrupted" });
  }
}

function enospc(): NodeJS.ErrnoException {
  return Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC", errno: -28, syscall: "write" });
}

export async function streamUploadToFile(body: AsyncIterable<Uint8Array>, opts: StreamUploadOptions): Promise<StreamedUpload> {
  mkdirSync(opts.dir, { recursive: true, mode: 0o700 });
  if (opts.expectedBytes != null && opts.expectedBytes > opts.maxBytes) {
    throw badInput(`${opts.fileName} is ${formatBytes(opts.expectedBytes)}, larger than the upload cap of ${formatBytes(opts.maxBytes)}${opts.capHint ?? ""}. Nothing was stored.`, {
      code: "too_large",
      limit: opts.maxBytes,
    });
  }
  const tmpPath = path.join(opts.dir, `upload-${randomUUID()}.tmp`);
  const file = await open(tmpPath, "wx", 0o600);
  const hash = createHash("sha256");
  const checker = opts.content ? new ContentChecker(opts.fileName, opts.content) : null;
  let bytes = 0;
  let ok = false;
  try {
    try {
      for await (const chunk of body) {
        bytes += chunk.length;
        if (bytes > opts.maxBytes) {
          throw badInput(`${opts.fileName} is larger than the upload cap of ${formatBytes(opts.maxBytes)}${opts.capHint ?? ""}; the upload was stopped at that size and nothing was stored.`, {
            code: "too_large",
            limit: opts.maxBytes,
          });
        }
        checker?.push(chunk);
        hash.update(chunk);
        if (opts.enospcAfterBytes !== undefined && bytes > opts.enospcAfterBytes) throw enospc();
        await file.write(chunk);
      }
    } catch (err) {
      if (err instanceof DomainError) throw err;
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "ENOSPC" || code === "EDQUOT") {
        throw new DomainError("UNAVAILABLE", `The disk of This computer filled up while ${opts.fileName} was uploading (after ${formatBytes(bytes)}). The partial file was removed and nothing was stored; free some space and try again.`, {
          code: "disk_full",
        });
      }
      throw new UploadInterrupted(`The upload of ${opts.fileName} was interrupted after ${formatBytes(bytes)} (${(err as Error).message}). The partial file was removed and nothing was stored.`);
    }
    if (opts.expectedBytes != null && bytes !== opts.expectedBytes) {
      throw new UploadInterrupted(`The upload of ${opts.fileName} ended after ${formatBytes(bytes)} of ${formatBytes(opts.expectedBytes)}. The partial file was removed and nothing was stored.`);
    }
    checker?.finish();
    await file.sync();
    ok = true;
    return { tmpPath, sha256: hash.digest("hex"), bytes, kind: checker?.sniffed ?? null };
  } finally {
    // The upload's outcome is decided above; closing a handle that failed mid-write cannot change it.
    await file.close().catch(() => {});
    if (!ok) rmSync(tmpPath, { force: true });
  }
}
