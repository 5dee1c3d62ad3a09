/**
 * `trainyard backup DIR`: a consistent copy of the database through SQLite's online
 * backup API (safe while the server writes), plus a manifest of the managed data
 * folders (datasets, artifacts) with sizes, so a restore can be checked for
 * completeness. Managed data files are immutable and named by hash; copy them with
 * any file tool (docs/operations.md).
 */
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import type { HomePaths } from "@/server/config/home";
import { VERSION } from "@/server/lifecycle/server-info";

export interface BackupResult {
  folder: string;
  databaseFile: string;
  manifestFile: string;
  files: number;
  bytes: number;
}

function listFiles(root: string): { path: string; bytes: number }[] {
  if (!existsSync(root)) return [];
  const out: { path: string; bytes: number }[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) out.push({ path: path.relative(root, full), bytes: statSync(full).size });
    }
  };
  walk(root);
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

export async function backupHome(home: HomePaths, targetDir: string): Promise<BackupResult> {
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const folder = path.resolve(targetDir, `trainyard-backup-${stamp}`);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const databaseFile = path.join(folder, "trainyard.db");
  const db = new Database(home.dbFile, { readonly: true, fileMustExist: true });
  try {
    await db.backup(databaseFile);
  } finally {
    db.close();
  }
  const managed = {
    datasets: listFiles(home.datasetsDir),
    artifacts: listFiles(home.artifactsDir),
  };
  const all = [...managed.datasets, ...managed.artifacts];
  const manifest = {
    version: VERSION,
    createdAt: new Date().toISOString(),
    home: home.root,
    database: { file: "trainyard.db", bytes: statSync(databaseFile).size },
    managedData: managed,
  };
  const manifestFile = path.join(folder, "manifest.json");
  writeFileSync(manifestFile, JSON.stringify(manifest, null, 2));
  return {
    folder,
    databaseFile,
    manifestFile,
    files: all.length,
    bytes: all.reduce((s, f) => s + f.bytes, 0),
  };
}
