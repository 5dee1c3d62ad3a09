/**
 * A data migration tested as a user meets it: a database made by every migration before
 * `migration` (it and every later one held back: a later one may build on what it made),
 * rows written there the old way, then the upgrade. Answers what the upgrade applied.
 */
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { prepareDatabase } from "./prepare-database";

const REPO = path.resolve(import.meta.dirname, "../..");

export async function upgradeFrom<T>(
  migration: string,
  seed: (db: Database.Database) => void,
  read: (db: Database.Database) => T,
): Promise<{ heldBack: string[]; applied: string[]; after: T }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "ty-upgrade-"));
  try {
    const migrationsDir = path.join(dir, "migrations");
    cpSync(path.join(REPO, "prisma/migrations"), migrationsDir, { recursive: true });
    const heldBack = readdirSync(migrationsDir).filter((m) => m >= migration && m !== "migration_lock.toml").sort();
    for (const m of heldBack) rmSync(path.join(migrationsDir, m), { recursive: true });
    const paths = { schemaFile: path.join(REPO, "prisma/schema.prisma"), migrationsDir };
    const file = path.join(dir, "trainyard.db");
    await prepareDatabase(file, paths);
    const before = new Database(file);
    seed(before);
    before.close();
    for (const m of heldBack) cpSync(path.join(REPO, "prisma/migrations", m), path.join(migrationsDir, m), { recursive: true });
    const applied = await prepareDatabase(file, paths);
    const db = new Database(file);
    const after = read(db);
    db.close();
    return { heldBack, applied, after };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
