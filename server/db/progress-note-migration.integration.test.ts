import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { expect, it } from "vitest";
import { prepareDatabase } from "./prepare-database";

const REPO = path.resolve(import.meta.dirname, "../..");
const MIGRATION = "20261201130837_lifecycle_events_progress_note";

it("upgrading moves a running experiment's note from reason to progressNote; an ended one keeps its reason", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "ty-note-"));
  const migrationsDir = path.join(dir, "migrations");
  cpSync(path.join(REPO, "prisma/migrations"), migrationsDir, { recursive: true });
  // The database as it was before this migration: it and every later one held back (a later
  // one may build on what it made).
  const heldBack = readdirSync(migrationsDir).filter((m) => m >= MIGRATION && m !== "migration_lock.toml").sort();
  for (const m of heldBack) rmSync(path.join(migrationsDir, m), { recursive: true });
  const paths = { schemaFile: path.join(REPO, "prisma/schema.prisma"), migrationsDir };
  const file = path.join(dir, "trainyard.db");
  await prepareDatabase(file, paths);
  const before = new Database(file);
  const insert = before.prepare(
    `INSERT INTO Experiment (id, projectId, opId, intentHash, name, status, reason, targetId, targetRevision, datasetId, snapshotSha256, settings, budgetSeconds, updatedAt)
     VALUES (?, 'p', ?, 'h', 'e', ?, ?, 't', 1, 'd', 's', '{}', 60, 0)`,
  );
  insert.run("running", "op1", "running", "Copying the dataset to gpu-box: 40%");
  insert.run("failed", "op2", "failed", "step train failed (exit_code)");
  before.close();
  for (const m of heldBack) cpSync(path.join(REPO, "prisma/migrations", m), path.join(migrationsDir, m), { recursive: true });
  expect(await prepareDatabase(file, paths)).toEqual(heldBack);
  expect(heldBack[0]).toBe(MIGRATION);
  const after = new Database(file);
  const rows = after.prepare("SELECT id, reason, progressNote FROM Experiment ORDER BY id").all();
  after.close();
  expect(rows).toEqual([
    { id: "failed", reason: "step train failed (exit_code)", progressNote: null },
    { id: "running", reason: null, progressNote: "Copying the dataset to gpu-box: 40%" },
  ]);
});
