import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createMigration, pendingMigrationNames } from "./migrations";

const REPO = path.resolve(import.meta.dirname, "../..");

describe("creating a migration with the wasm schema engine", () => {
  it("writes only the difference between the migrations and the changed schema", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "ty-mig-"));
    const migrationsDir = path.join(dir, "migrations");
    cpSync(path.join(REPO, "prisma/migrations"), migrationsDir, { recursive: true });
    const schemaFile = path.join(dir, "schema.prisma");
    const schema = readFileSync(path.join(REPO, "prisma/schema.prisma"), "utf8");
    writeFileSync(schemaFile, schema.replace(/(model Project \{\n)/, "$1  note String?\n"));
    const before = readdirSync(migrationsDir).length;
    const name = await createMigration(path.join(dir, "scratch.db"), { schemaFile, migrationsDir }, "add_note");
    expect(name).toMatch(/_add_note$/);
    expect(readdirSync(migrationsDir)).toHaveLength(before + 1);
    const sql = readFileSync(path.join(migrationsDir, name!, "migration.sql"), "utf8");
    expect(sql).toMatch(/ALTER TABLE "Project" ADD COLUMN "note" TEXT/);
    expect(pendingMigrationNames(path.join(dir, "scratch.db"), migrationsDir)).toEqual([]);
    // Nothing changed since: no new migration.
    expect(await createMigration(path.join(dir, "scratch.db"), { schemaFile, migrationsDir }, "again")).toBeNull();
  });
});
