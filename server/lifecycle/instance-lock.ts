/**
 * One server per data home. Two servers writing one SQLite file and one worker home
 * would each run a reconcile loop and race on job state, so the second refuses.
 * The lock is a file created with O_EXCL holding the owner's pid and the process start
 * time (/proc), so a lock left by a crashed server is recognised as stale even after
 * the pid has been reused.
 */
import { readFileSync, unlinkSync, writeFileSync } from "node:fs";

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

/** Takes the lock or throws InstanceLocked; returns the release function. */
export function acquireInstanceLock(lockFile: string, home: string, url: string): () => void {
  const me: LockOwner = {
    pid: process.pid,
    startTime: processStartTime(process.pid),
    url,
    startedAt: new Date().toISOString(),
  };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(lockFile, JSON.stringify(me), { flag: "wx", mode: 0o600 });
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          const current = JSON.parse(readFileSync(lockFile, "utf8")) as LockOwner;
          if (current.pid === me.pid) unlinkSync(lockFile);
        } catch {
          // Already gone: nothing to release.
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      let owner: LockOwner | null = null;
      try {
        owner = JSON.parse(readFileSync(lockFile, "utf8")) as LockOwner;
      } catch {
        owner = null; // unreadable lock: treat as stale
      }
      if (owner && isAlive(owner)) throw new InstanceLocked(owner, home);
      unlinkSync(lockFile);
    }
  }
  throw new Error(`could not take the server lock ${lockFile}`);
}
