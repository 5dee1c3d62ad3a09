// Path checks for user-supplied paths (peek, import): absolute, no `..` segment, inside an
// allowed root (or the store) lexically and after realpath, a regular file — and then the
// same checks again on what was actually opened. The first check gives a clear message;
// the second closes the gap between check and open: the file is opened with O_NOFOLLOW
// (a final component swapped for a symlink fails with ELOOP) and O_NONBLOCK (a FIFO swapped
// in never blocks the open), its type is taken from fstat, and its real path is read back
// from /proc/self/fd/N (a parent folder swapped for a symlink shows up there). Callers read
// only from the returned descriptor, never by path again. Linux only (/proc).
import fs from "node:fs";
import path from "node:path";
import { secretPlaceOf } from "../../contracts/worker/secret-folders";
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

function kindOf(st: fs.Stats): string {
  if (st.isDirectory()) return "a directory";
  if (st.isFIFO()) return "a FIFO";
  if (st.isCharacterDevice() || st.isBlockDevice()) return "a device";
  if (st.isSocket()) return "a socket";
  if (st.isSymbolicLink()) return "a symlink";
  return "not a regular file";
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
  if (!realRoots(roots).some((r) => inside(real, r))) {
    throw new WorkerError("path_not_allowed", `path ${userPath} resolves (through a symlink) to ${real}, outside the allowed roots`);
  }
  refuseSecret(userPath, real);
  // stat before open: opening a device can have side effects (a tape rewinds), so never try.
  const st = fs.statSync(real);
  if (!st.isFile()) throw new WorkerError("not_a_regular_file", `path ${userPath} is ${kindOf(st)}`);
  return real;
}

// Credentials stay unreadable even under an allowed folder that contains them (a home
// folder): the settings refuse such a folder as a root, and this refuses any file in one,
// by the same rule (contracts/worker/secret-folders.ts).
function refuseSecret(userPath: string, real: string): void {
  const secret = secretPlaceOf(real, true);
  if (secret) {
    throw new WorkerError("path_not_allowed", `path ${userPath} is ${secret} or inside it (${path.dirname(real)}); credential folders are never read, even under an allowed folder`);
  }
}

function realRoots(roots: string[]): string[] {
  return roots.map(realOrNull).filter((r): r is string => r !== null);
}

export interface OpenedFile {
  fd: number;
  /** The real path of the open file, read back from /proc/self/fd. */
  real: string;
  /** fstat of the descriptor at open time (size, mtime, ctime, inode for change checks). */
  stat: fs.Stats;
}

/** Test seam: runs between the path check and the open, where a swap would happen. */
export interface OpenHooks {
  beforeOpen?: (real: string) => void;
}

/**
 * Check `userPath` against `roots`, open it, and check the open descriptor again (type by
 * fstat, real path by /proc/self/fd). The caller owns the descriptor and must close it.
 */
export function openInRoots(userPath: string, roots: string[], hooks: OpenHooks = {}): OpenedFile {
  const real = checkReadablePath(userPath, roots);
  hooks.beforeOpen?.(real);
  let fd: number;
  try {
    fd = fs.openSync(real, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOFOLLOW);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ELOOP") throw new WorkerError("path_not_allowed", `path ${userPath} became a symlink after it was checked; nothing was read`);
    if (code === "ENOENT") throw new WorkerError("not_found", `path ${userPath} disappeared after it was checked`);
    throw err;
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw new WorkerError("not_a_regular_file", `path ${userPath} is ${kindOf(stat)} (it changed after it was checked)`);
    const opened = fs.readlinkSync(`/proc/self/fd/${fd}`);
    if (!realRoots(roots).some((r) => inside(opened, r))) {
      throw new WorkerError("path_not_allowed", `path ${userPath} opened ${opened}, outside the allowed roots (a folder on the way was swapped for a symlink); nothing was read`);
    }
    refuseSecret(userPath, opened);
    return { fd, real: opened, stat };
  } catch (err) {
    fs.closeSync(fd);
    throw err;
  }
}
