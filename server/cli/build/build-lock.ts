/**
 * One build at a time per output: a lock file beside the output holds the builder's pid.
 * Others wait while that process lives and take the lock over when it died (a build
 * killed half-way leaves a lock, never a half output: outputs appear by rename or by a
 * marker file written last). Used for the web app and the worker bundle.
 */
import { existsSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readOwner(lock: string): number | null {
  try {
    return Number(readFileSync(lock, "utf8")) || 0;
  } catch {
    return null; // released between our attempt and this read
  }
}

/**
 * Runs `build` under `lock` unless `isBuilt()` says the output exists, re-checking after
 * waiting, so concurrent callers for one output build it once.
 */
export async function buildOnce(lock: string, isBuilt: () => boolean, build: () => Promise<void> | void): Promise<"built" | "present"> {
  for (;;) {
    // While another process holds the lock its output may be half written, even if it
    // looks complete: wait for the lock.
    if (isBuilt() && !existsSync(lock)) return "present";
    try {
      writeFileSync(lock, String(process.pid), { flag: "wx" });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const owner = readOwner(lock);
      if (owner === null) continue;
      if (!owner || !pidAlive(owner)) {
        try {
          unlinkSync(lock);
        } catch {
          // another waiter removed it first
        }
      } else await sleep(300);
    }
  }
  try {
    if (isBuilt()) return "present";
    await build();
    return "built";
  } finally {
    unlinkSync(lock);
  }
}
