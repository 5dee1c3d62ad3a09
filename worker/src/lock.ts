// File lock without native modules: an O_EXCL lock file holding the owner's identity
// (pid, start time, boot id). A lock whose owner is dead (crash, kill -9, reboot) is
// stolen; stealing is itself serialised by a short-lived `.steal` lock so two waiters
// cannot both remove a lock and both believe they own it. Locks are held for
// milliseconds (read-modify-write of small JSON files), never across a recipe run.
import fs from "node:fs";
import path from "node:path";
import { sleepSync } from "./fsx";
import { identityOf, isAlive } from "./proc";
import { WorkerError } from "./errors";

const STEAL_STALE_MS = 10_000;

function tryCreate(file: string, content: string): boolean {
  try {
    const fd = fs.openSync(file, "wx", 0o644);
    fs.writeSync(fd, content);
    fs.closeSync(fd);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw err;
  }
}

function ownerIsDead(file: string): boolean {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    return false; // vanished: just retry the create
  }
  try {
    return !isAlive(JSON.parse(text));
  } catch {
    // Half-written lock content: the owner died between create and write, or is writing now.
    const age = Date.now() - (fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    return age > 2_000;
  }
}

function stealIfDead(file: string): void {
  const steal = `${file}.steal`;
  const me = JSON.stringify(identityOf(process.pid));
  if (!tryCreate(steal, me)) {
    const st = fs.statSync(steal, { throwIfNoEntry: false });
    if (st && Date.now() - st.mtimeMs > STEAL_STALE_MS) fs.rmSync(steal, { force: true });
    return;
  }
  try {
    if (ownerIsDead(file)) fs.rmSync(file, { force: true });
  } finally {
    fs.rmSync(steal, { force: true });
  }
}

export function withLock<T>(file: string, what: string, fn: () => T, timeoutMs = 30_000): T {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const me = JSON.stringify(identityOf(process.pid));
  const start = Date.now();
  let wait = 2;
  while (!tryCreate(file, me)) {
    if (ownerIsDead(file)) {
      stealIfDead(file);
      continue;
    }
    if (Date.now() - start > timeoutMs) {
      throw new WorkerError("lock_timeout", `could not take the ${what} lock (${file}) within ${timeoutMs} ms`);
    }
    sleepSync(wait + Math.random() * wait);
    wait = Math.min(wait * 2, 50);
  }
  try {
    return fn();
  } finally {
    fs.rmSync(file, { force: true });
  }
}
