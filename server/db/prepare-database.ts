/**
 * Brings the database file to a usable state before the server accepts requests:
 * checks that it is a readable, writable SQLite file, switches it to WAL, and applies
 * pending migrations. Every failure becomes a message a person can act on.
 */
import { accessSync, constants, existsSync, statSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { applyPendingMigrations, type MigrationPaths } from "./migrations";

export class DatabaseProblem extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DatabaseProblem";
  }
}

export function repoMigrationPaths(repoRoot: string): MigrationPaths {
  return {
    schemaFile: path.join(repoRoot, "prisma/schema.prisma"),
    migrationsDir: path.join(repoRoot, "prisma/migrations"),
  };
}

function checkFile(dbFile: string): void {
  if (!existsSync(dbFile)) return;
  try {
    accessSync(dbFile, constants.R_OK | constants.W_OK);
    // root passes access() on any file: honour the owner's write bit as the signal too.
    if ((statSync(dbFile).mode & 0o200) === 0) throw new Error("read-only");
  } catch {
    throw new DatabaseProblem(
      `The database file ${dbFile} is read-only for this user. Trainyard needs to write to it: ` +
        `fix its permissions (chmod u+rw) or its owner, then start again.`,
    );
  }
  let db: Database.Database | undefined;
  try {
    db = new Database(dbFile, { fileMustExist: true });
    const rows = db.prepare("PRAGMA quick_check").all() as { quick_check: string }[];
    if (rows[0]?.quick_check !== "ok") throw new Error(rows.map((r) => r.quick_check).join("; "));
    db.pragma("journal_mode = WAL");
  } catch (err) {
    throw new DatabaseProblem(
      `The database file ${dbFile} is damaged or is not a Trainyard database ` +
        `(${err instanceof Error ? err.message : String(err)}). Nothing was changed. ` +
        `Restore it from a backup (see docs/operations.md), or move it away to start empty.`,
    );
  } finally {
    db?.close();
  }
}

/** Returns the names of the migrations it applied. */
export async function prepareDatabase(dbFile: string, paths: MigrationPaths): Promise<string[]> {
  checkFile(dbFile);
  let applied: string[];
  try {
    applied = await applyPendingMigrations(dbFile, paths);
  } catch (err) {
    throw new DatabaseProblem(
      `Could not upgrade the database ${dbFile}: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}`,
    );
  }
  const db = new Database(dbFile);
  try {
    db.pragma("journal_mode = WAL");
  } finally {
    db.close();
  }
  return applied;
}
