import { chmodSync, cpSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { DatabaseProblem, prepareDatabase, repoMigrationPaths } from "./prepare-database";

const REPO = path.resolve(import.meta.dirname, "../..");
const tmp = () => mkdtempSync(path.join(os.tmpdir(), "ty-db-"));

describe("preparing the database at start", () => {
  it("creates a new database in WAL mode with every migration applied", async () => {
    const file = path.join(tmp(), "trainyard.db");
    const applied = await prepareDatabase(file, repoMigrationPaths(REPO));
    expect(applied.length).toBeGreaterThan(0);
    const db = new Database(file);
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    db.close();
    expect(await prepareDatabase(file, repoMigrationPaths(REPO))).toEqual([]);
  });

  it("upgrades a database from an older migration in place, keeping its rows", async () => {
    const dir = tmp();
    const migrationsDir = path.join(dir, "migrations");
    cpSync(path.join(REPO, "prisma/migrations"), migrationsDir, { recursive: true });
    const paths = { schemaFile: path.join(REPO, "prisma/schema.prisma"), migrationsDir };
    const file = path.join(dir, "trainyard.db");
    await prepareDatabase(file, paths);
    const before = new Database(file);
    before
      .prepare(`INSERT INTO Project (id, name, nameKey, revision, createdAt, updatedAt) VALUES ('p1', 'Kept', 'kept', 1, 0, 0)`)
      .run();
    before.close();
    // A later release adds a migration.
    const next = path.join(migrationsDir, "29990101000000_later_release");
    mkdirSync(next);
    writeFileSync(path.join(next, "migration.sql"), `ALTER TABLE "Project" ADD COLUMN "description" TEXT;\n`);
    expect(await prepareDatabase(file, paths)).toEqual(["29990101000000_later_release"]);
    const after = new Database(file);
    expect(after.prepare("SELECT name, description FROM Project WHERE id = 'p1'").get()).toEqual({ name: "Kept", description: null });
    after.close();
  });

  it("refuses a corrupt database file with a message that says what to do, leaving it untouched", async () => {
    const file = path.join(tmp(), "trainyard.db");
    const garbage = Buffer.concat([Buffer.from("SQLite format 3\0"), Buffer.alloc(4096, 0x5a)]);
    writeFileSync(file, garbage);
    const err = await prepareDatabase(file, repoMigrationPaths(REPO)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DatabaseProblem);
    expect((err as Error).message).toMatch(/damaged or is not a Trainyard database/);
    expect((err as Error).message).toMatch(/backup/);
  });

  it("refuses a read-only database file", async () => {
    const file = path.join(tmp(), "trainyard.db");
    await prepareDatabase(file, repoMigrationPaths(REPO));
    chmodSync(file, 0o444);
    const err = await prepareDatabase(file, repoMigrationPaths(REPO)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DatabaseProblem);
    expect((err as Error).message).toMatch(/read-only/);
  });
});
