/** A real SQLite database in a temp folder, migrated like the server's, for in-process tests. */
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { closeDb, openDb, type Db } from "@/server/db/client";
import { prepareDatabase, repoMigrationPaths } from "@/server/db/prepare-database";
import { REPO } from "./server-harness";

export async function openTestDb(): Promise<{ db: Db; close: () => Promise<void> }> {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "trainyard-db-")), "trainyard.db");
  await prepareDatabase(file, repoMigrationPaths(REPO));
  return { db: openDb(file), close: closeDb };
}

export async function seedJob(db: Db, state = "queued", targetName = "This computer") {
  const target = await db.target.upsert({ where: { name: targetName }, create: { name: targetName, kind: "local" }, update: {} });
  return db.job.create({
    data: {
      opId: `op-${Math.random().toString(36).slice(2)}`,
      intentHash: "h",
      targetId: target.id,
      targetRevision: 1,
      recipe: "ctltest",
      recipeVersion: "0.3.0",
      jobName: "run",
      environmentId: "e".repeat(64),
      input: "{}",
      resources: "{}",
      deadlineSeconds: 60,
      state,
    },
  });
}
