// Snapshot one opened file into the store: read from the open descriptor only (never by
// path again), hashing and copying in one pass, and refuse the result when the file
// changed meanwhile — size, mtime, ctime or inode differ between the fstat before and
// after, or the descriptor yields more or fewer bytes than its size (ctime cannot be set
// back by a writer, so an in-place rewrite that restores mtime is still seen). The copy
// goes to a temp file that is removed on every failure; progress and stop checks run
// between chunks so a long copy can report and be cancelled.
import crypto from "node:crypto";
import fs from "node:fs";
import { chargeWrite } from "./faults";
import { WorkerError } from "./errors";
import type { OpenedFile } from "./paths";

const CHUNK = 1 << 20;

export interface CopyHooks {
  /** Called between chunks with the bytes copied so far. */
  onProgress?: (bytes: number, totalBytes: number) => void;
  /** Called between chunks; a non-null answer stops the copy with that error. */
  shouldStop?: () => Error | null;
}

export interface CopyResult {
  sha256: string;
  bytes: number;
}

function changed(a: fs.Stats, b: fs.Stats): boolean {
  return a.size !== b.size || a.mtimeMs !== b.mtimeMs || a.ctimeMs !== b.ctimeMs || a.ino !== b.ino || a.dev !== b.dev;
}

/**
 * Copy `src` (already opened and checked) into `tmp` (created with O_EXCL) and
 * return its hash. `tmp` is removed when this throws; on success the caller moves it.
 */
export function copyOpened(src: OpenedFile, tmp: string, label: string, hooks: CopyHooks = {}): CopyResult {
  const before = src.stat;
  const hash = crypto.createHash("sha256");
  const buf = Buffer.allocUnsafe(CHUNK);
  let bytes = 0;
  const out = fs.openSync(tmp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL, 0o600);
  let ok = false;
  try {
    for (;;) {
      const stop = hooks.shouldStop?.();
      if (stop) throw stop;
      // Never read past size + 1: one extra byte already proves the file grew.
      const want = Math.min(CHUNK, before.size + 1 - bytes);
      const n = want > 0 ? fs.readSync(src.fd, buf, 0, want, bytes) : 0;
      if (n === 0) break;
      const chunk = buf.subarray(0, n);
      hash.update(chunk);
      chargeWrite(n, `copying ${label}`);
      let off = 0;
      while (off < n) off += fs.writeSync(out, chunk, off, n - off);
      bytes += n;
      hooks.onProgress?.(bytes, before.size);
      if (bytes > before.size) break;
    }
    const after = fs.fstatSync(src.fd);
    if (bytes !== before.size || changed(before, after)) {
      throw new WorkerError("file_changed", `${label} changed while it was being copied (size ${before.size} -> ${after.size}, ${bytes} bytes read); nothing was stored, try again when it is complete`);
    }
    ok = true; // storeBlob fsyncs the copy before it is renamed into the store
  } finally {
    fs.closeSync(out);
    if (!ok) fs.rmSync(tmp, { force: true });
  }
  return { sha256: hash.digest("hex"), bytes };
}
