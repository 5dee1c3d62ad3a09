/**
 * Per-fingerprint build folders pile up with every update. Keeps the current one and the
 * newest other (a server of the previous version may still run), and removes the rest
 * once unused for a day (a folder's modification time is its last build or use).
 */
import { readdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";

const DAY_MS = 86_400_000;

export function pruneOldBuilds(buildsDir: string, keep: string): void {
  const dirs = readdirSync(buildsDir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && e.name !== keep && !e.name.includes("."))
    .map((e) => ({ name: e.name, mtime: statSync(path.join(buildsDir, e.name)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const d of dirs.slice(1)) {
    if (Date.now() - d.mtime > DAY_MS) rmSync(path.join(buildsDir, d.name), { recursive: true, force: true });
  }
}
