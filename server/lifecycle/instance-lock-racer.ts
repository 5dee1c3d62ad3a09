/**
 * One racing starter for instance-lock.integration.test.ts: waits until the given moment,
 * tries to take the lock, prints HELD or REFUSED, holds it for a while, then releases it.
 *   node --import tsx server/lifecycle/instance-lock-racer.ts LOCKFILE AT_MS HOLD_MS
 */
import { acquireInstanceLock } from "./instance-lock";

const [lockFile, at, hold] = process.argv.slice(2);
const wait = Number(at) - Date.now();
setTimeout(() => {
  let release: (() => void) | null = null;
  try {
    release = acquireInstanceLock(lockFile!, "the test home", "http://127.0.0.1:0");
    console.log("HELD");
  } catch (err) {
    console.log(`REFUSED ${(err as Error).message}`);
  }
  setTimeout(() => release?.(), Number(hold));
}, Math.max(0, wait));
