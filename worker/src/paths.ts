// Path checks for user-supplied paths (peek, import): absolute, no `..` segment,
// inside an allowed root (or the store) both lexically and after realpath (so a symlink
// cannot escape), and a regular file (no directories, FIFOs, devices, sockets).
import fs from "node:fs";
import path from "node:path";
import { WorkerError } from "./errors";

function inside(child: string, root: string): boolean {
  const rel = path.relative(root, child);
  return rel === "" ? false : !rel.startsWith("..") && !path.isAbsolute(rel);
}

function realOrNull(p: string): string | null {
  try {
    return fs.realpathSync(p);
  } catch {
    return null;
  }
}

/** Returns the real path of an allowed regular file or throws a typed error. */
export function checkReadablePath(userPath: string, roots: string[]): string {
  if (!path.isAbsolute(userPath)) throw new WorkerError("path_not_allowed", `path ${JSON.stringify(userPath)} must be absolute`);
  if (userPath.split(/[\\/]/).includes("..")) throw new WorkerError("path_not_allowed", `path ${JSON.stringify(userPath)} contains '..'`);
  const lexical = path.normalize(userPath);
  if (!roots.some((r) => inside(lexical, r))) {
    throw new WorkerError("path_not_allowed", `path ${userPath} is outside the worker's allowed roots`, { allowedRoots: roots });
  }
  const real = realOrNull(lexical);
  if (!real) throw new WorkerError("not_found", `path ${userPath} does not exist`);
  const realRoots = roots.map(realOrNull).filter((r): r is string => r !== null);
  if (!realRoots.some((r) => inside(real, r))) {
    throw new WorkerError("path_not_allowed", `path ${userPath} resolves (through a symlink) to ${real}, outside the allowed roots`);
  }
  const st = fs.statSync(real);
  if (!st.isFile()) {
    const kind = st.isDirectory() ? "a directory" : st.isFIFO() ? "a FIFO" : st.isCharacterDevice() || st.isBlockDevice() ? "a device" : st.isSocket() ? "a socket" : "not a regular file";
    throw new WorkerError("not_a_regular_file", `path ${userPath} is ${kind}`);
  }
  return real;
}

/** Open for reading without blocking on a FIFO swapped in after the check, and re-check the type. */
export function openRegular(real: string): number {
  const fd = fs.openSync(real, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOFOLLOW);
  if (!fs.fstatSync(fd).isFile()) {
    fs.closeSync(fd);
    throw new WorkerError("not_a_regular_file", `path ${real} is not a regular file`);
  }
  return fd;
}
