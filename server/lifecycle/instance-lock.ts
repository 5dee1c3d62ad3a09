/**
 * One server per data home. Two servers writing one SQLite file and one worker home
 * would each run a reconcile loop and race on job state, so the second refuses.
 * The lock is a file created atomically with its content (a hard link of a file already
 * written) holding the owner's pid and the process start time (/proc), so a lock left by a
 * crashed server is recognised as stale even after the pid has been reused, and a lock
 * being created is never seen empty.
 */
import { closeSync, linkSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";

export interface LockOwner {
  pid: number;
  startTime: string | null;
  url: string;
  startedAt: string;
}

export class InstanceLocked extends Error {
  constructor(
    readonly owner: LockOwner,
    home: string,
  ) {
    super(
      `Another Trainyard server (pid ${owner.pid}, ${owner.url}) is already using the data folder ${home}. ` +
        `Stop it first, or set TRAINYARD_HOME to another folder to run a second, separate workspace.`,
    );
    this.name = "InstanceLocked";
  }
}

export function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Field 22; the command name (field 2) may contain spaces, so split after ")".
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}

function isAlive(owner: LockOwner): boolean {
  try {
    process.kill(owner.pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
  const start = processStartTime(owner.pid);
  return owner.startTime === null || start === null || start === owner.startTime;
}

function readOwner(lockFile: string): LockOwner | null {
  try {
    return JSON.parse(readFileSync(lockFile, "utf8")) as LockOwner;
  } catch {
    return null; // gone, or unreadable: stale either way (a lock is never seen half-written)
  }
}

/**
 * Creates the lock with its content already in it: the owner is written to a private file
 * that is then hard-linked to the lock's name, which fails when the name exists. A second
 * starter therefore never sees an empty lock and mistakes it for a stale one.
 */
function createLock(lockFile: string, me: LockOwner): boolean {
  const own = `${lockFile}.${process.pid}.tmp`;
  writeFileSync(own, JSON.stringify(me), { mode: 0o600 });
  try {
    linkSync(own, lockFile);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    return false;
  } finally {
    rmSync(own, { force: true });
  }
}

/** A takeover guard left by a starter that died in the middle of one is stale after this long. */
const TAKEOVER_STALE_MS = 10_000;

/**
 * Removes a stale lock, holding a short-lived takeover guard so that of several starters
 * that all found the same stale lock only one removes it: without the guard, a late one
 * would remove the lock the first had just taken.
 */
function removeStale(lockFile: string, stale: LockOwner | null, home: string): void {
  const guard = `${lockFile}.takeover`;
  let fd: number;
  try {
    fd = openSync(guard, "wx", 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    const age = Date.now() - (statSync(guard, { throwIfNoEntry: false })?.mtimeMs ?? 0);
    if (age > TAKEOVER_STALE_MS) rmSync(guard, { force: true });
    throw new Error(`Another Trainyard server is starting with the data folder ${home} at this moment; try again in a few seconds.`);
  }
  try {
    const now = readOwner(lockFile);
    if (now && isAlive(now)) throw new InstanceLocked(now, home);
    // Only the lock that was judged stale: one that changed since belongs to someone else.
    if (JSON.stringify(now) === JSON.stringify(stale)) rmSync(lockFile, { force: true });
  } finally {
    closeSync(fd);
    rmSync(guard, { force: true });
  }
}

/** Takes the lock or throws InstanceLocked; returns the release function. */
export function acquireInstanceLock(lockFile: string, home: string, url: string): () => void {
  const me: LockOwner = {
    pid: process.pid,
    startTime: processStartTime(process.pid),
    url,
    startedAt: new Date().toISOString(),
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    if (createLock(lockFile, me)) {
      let released = false;
      return () => {
        if (released) return;
        released = true;
        if (readOwner(lockFile)?.pid === me.pid) rmSync(lockFile, { force: true });
      };
    }
    const owner = readOwner(lockFile);
    if (owner && isAlive(owner)) throw new InstanceLocked(owner, home);
    removeStale(lockFile, owner, home);
  }
  throw new Error(`could not take the server lock ${lockFile}`);
}
