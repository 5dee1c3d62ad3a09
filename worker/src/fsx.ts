// File helpers: atomic durable writes (temp, fsync, rename, fsync dir), appends that
// count toward the injected-ENOSPC test hook, synchronous sleeps for lock waits, hashing.
import fs from "node:fs";
import path from "node:path";
import crypto from "node:crypto";
import { chargeWrite } from "./faults";

export function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

export function fsyncDir(dir: string): void {
  let fd: number | null = null;
  try {
    fd = fs.openSync(dir, "r");
    fs.fsyncSync(fd);
  } catch {
    // Some filesystems refuse fsync on directories; the rename is still atomic.
  } finally {
    if (fd !== null) fs.closeSync(fd);
  }
}

/** Write a file so a reader sees the old or the new content, never a half file, after a crash too. */
export function writeFileAtomic(file: string, data: string | Buffer, mode = 0o644): void {
  const buf = typeof data === "string" ? Buffer.from(data) : data;
  chargeWrite(buf.length, `writing ${file}`);
  const tmp = `${file}.tmp-${process.pid}-${crypto.randomBytes(4).toString("hex")}`;
  const fd = fs.openSync(tmp, "wx", mode);
  try {
    fs.writeSync(fd, buf);
    fs.fsyncSync(fd);
  } catch (err) {
    fs.closeSync(fd);
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  fs.closeSync(fd);
  try {
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  fsyncDir(path.dirname(file));
}

export function writeJsonAtomic(file: string, value: unknown): void {
  writeFileAtomic(file, JSON.stringify(value, null, 2) + "\n");
}

/** Append one line (O_APPEND keeps concurrent small appends whole on a local filesystem). */
export function appendLine(file: string, line: string): void {
  const buf = Buffer.from(line.endsWith("\n") ? line : line + "\n");
  chargeWrite(buf.length, `appending to ${file}`);
  fs.appendFileSync(file, buf);
}

export function fileSize(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

export function readText(file: string): string | null {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}

export async function sha256File(file: string): Promise<{ sha256: string; bytes: number }> {
  const hash = crypto.createHash("sha256");
  let bytes = 0;
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 1 << 20 })) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { sha256: hash.digest("hex"), bytes };
}

export function nowIso(): string {
  return new Date().toISOString();
}

export function mkdirp(dir: string, mode = 0o755): void {
  fs.mkdirSync(dir, { recursive: true, mode });
}
