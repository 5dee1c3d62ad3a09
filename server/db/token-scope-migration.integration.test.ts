import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { expect, it } from "vitest";
import { prepareDatabase } from "./prepare-database";

const REPO = path.resolve(import.meta.dirname, "../..");
const MIGRATION = "20261205140000_token_scopes";

it("upgrading turns a read-only token into the read-only scope and every other into full, keeping them usable", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "ty-scope-"));
  const migrationsDir = path.join(dir, "migrations");
  cpSync(path.join(REPO, "prisma/migrations"), migrationsDir, { recursive: true });
  const heldBack = readdirSync(migrationsDir).filter((m) => m >= MIGRATION && m !== "migration_lock.toml").sort();
  for (const m of heldBack) rmSync(path.join(migrationsDir, m), { recursive: true });
  const paths = { schemaFile: path.join(REPO, "prisma/schema.prisma"), migrationsDir };
  const file = path.join(dir, "trainyard.db");
  await prepareDatabase(file, paths);
  const before = new Database(file);
  const insert = before.prepare(`INSERT INTO ApiToken (id, name, prefix, tokenHash, readOnly) VALUES (?, ?, ?, ?, ?)`);
  insert.run("t1", "reader", "tyt_aaaaaa", "hash-1", 1);
  insert.run("t2", "script", "tyt_bbbbbb", "hash-2", 0);
  before.close();
  for (const m of heldBack) cpSync(path.join(REPO, "prisma/migrations", m), path.join(migrationsDir, m), { recursive: true });
  expect(await prepareDatabase(file, paths)).toEqual(heldBack);
  const after = new Database(file);
  const rows = after.prepare("SELECT id, name, scope, parentId FROM ApiToken ORDER BY id").all();
  const columns = (after.prepare("PRAGMA table_info(ApiToken)").all() as { name: string }[]).map((c) => c.name);
  after.close();
  rmSync(dir, { recursive: true, force: true });
  expect(rows).toEqual([
    { id: "t1", name: "reader", scope: "read-only", parentId: null },
    { id: "t2", name: "script", scope: "full", parentId: null },
  ]);
  expect(columns).not.toContain("readOnly");
});
