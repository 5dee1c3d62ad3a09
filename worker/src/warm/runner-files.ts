// Where a warm runner lives and what it is keyed by (docs/dev/warm-start.md). One runner
// per recipe environment and home: its key changes when the environment is rebuilt, the
// training code changes, or the recipe's preload list changes, so a stale runner is never
// asked again (it idles out) and the next job starts a fresh one.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { MAX_SOCKET_PATH_BYTES } from "../../../contracts/deployments/serving";
import type { WorkerConfig } from "../config";
import { envDir } from "../recipes";

export interface RunnerFiles {
  key: string;
  socket: string;
  lock: string;
  /** The runner's own log: its start, its imports, why it failed. */
  log: string;
  /** Written by a runner that could not become warm: jobs of this key start cold meanwhile. */
  failed: string;
  /** The identity of the runner last started (so a starting one is not started twice). */
  pidFile: string;
}

export interface RunnerSpec {
  recipe: string;
  environmentId: string;
  preload: string[];
}

/** Size and mtime of every Python file the runner could have imported from the training code. */
function codeFingerprint(trainingDir: string): string {
  const h = crypto.createHash("sha256");
  const walk = (dir: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (e.name === "__pycache__" || e.name === "tests" || e.name.startsWith(".")) continue;
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.name.endsWith(".py")) {
        const st = fs.statSync(full, { throwIfNoEntry: false });
        if (st) h.update(`${full}\0${st.size}\0${st.mtimeMs}\n`);
      }
    }
  };
  walk(trainingDir);
  return h.digest("hex");
}

function readyStamp(cfg: WorkerConfig, environmentId: string): string {
  const st = fs.statSync(path.join(envDir(cfg.envsDir, environmentId), "ready.json"), { throwIfNoEntry: false });
  return st ? `${st.ino}:${st.mtimeMs}` : "missing";
}

export function runnerFiles(cfg: WorkerConfig, spec: RunnerSpec): RunnerFiles {
  const key = crypto
    .createHash("sha256")
    .update(JSON.stringify([spec.environmentId, readyStamp(cfg, spec.environmentId), codeFingerprint(cfg.trainingDir), spec.preload]))
    .digest("hex")
    .slice(0, 16);
  const dir = path.join(cfg.home, "warm");
  const base = path.join(dir, `${spec.recipe}-${key}`);
  return { key, socket: socketPath(cfg.home, `${base}.sock`, key), lock: `${base}.lock`, log: `${base}.log`, failed: `${base}.failed`, pidFile: `${base}.pid` };
}

/** The natural path, or one under a private folder in the temp dir where the home's path is too long for a socket. */
function socketPath(home: string, natural: string, key: string): string {
  if (Buffer.byteLength(natural) <= MAX_SOCKET_PATH_BYTES) return natural;
  const tag = crypto.createHash("sha256").update(home).digest("hex").slice(0, 12);
  return path.join(os.tmpdir(), `trainyard-warm-${tag}`, `${key}.sock`);
}
