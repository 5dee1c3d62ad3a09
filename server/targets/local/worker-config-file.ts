/**
 * The local worker's `config.json` is shared by two writers (the computer's own
 * settings, the owner's allowed folders): each merges its fields into what is there,
 * keeping the other's. It is written durably — a new temp file (O_EXCL, mode 0600),
 * fsync, rename over, fsync of the folder — so a crash leaves the old or the new file,
 * never an empty or half one (which the worker would refuse, or a writer would take for
 * "no fields" and drop the allowed folders). The worker itself never writes this file;
 * this small helper is kept here because the worker may not be imported by the server
 * except for its protocol (DESIGN "One direction only").
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export function readWorkerConfig(workerHome: string): Record<string, unknown> {
  const file = path.join(workerHome, "config.json");
  if (!fs.existsSync(file)) return {};
  try {
    const parsed: unknown = JSON.parse(fs.readFileSync(file, "utf8"));
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {}; // unreadable: rewritten with what we know (the worker would refuse it anyway)
  }
}

function fsyncDir(dir: string): void {
  let fd: number | null = null;
  try {
    fd = fs.openSync(dir, "r");
    fs.fsyncSync(fd);
  } catch {
    // Some filesystems refuse fsync on a folder; the rename is still atomic.
  } finally {
    if (fd !== null) fs.closeSync(fd);
  }
}

/** Replace `file` with `data`: temp, fsync, rename, fsync dir. */
export function writeFileDurable(file: string, data: string, mode = 0o600): void {
  const tmp = `${file}.tmp-${process.pid}-${crypto.randomBytes(4).toString("hex")}`;
  const fd = fs.openSync(tmp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL, mode);
  try {
    fs.writeFileSync(fd, data);
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

export function mergeWorkerConfig(workerHome: string, patch: Record<string, unknown>): boolean {
  fs.mkdirSync(workerHome, { recursive: true, mode: 0o700 });
  const current = readWorkerConfig(workerHome);
  const next = { ...current, ...patch };
  if (JSON.stringify(next) === JSON.stringify(current)) return false;
  writeFileDurable(path.join(workerHome, "config.json"), JSON.stringify(next, null, 2) + "\n");
  return true;
}
