/**
 * Where a test run's time goes: with TRAINYARD_TEST_JOB_TIMES=FILE, each test data home's
 * jobs (recipe, job, queued/started/ended) are appended to FILE as JSON lines before the
 * home is removed; `node scripts/job-times.mjs FILE` sums them per job and per test file.
 */
import { appendFileSync, existsSync } from "node:fs";
import path from "node:path";

/** The test file now running (Vitest's worker state; absent outside Vitest). */
function testFile(): string | null {
  const state = (globalThis as { __vitest_worker__?: { filepath?: string } }).__vitest_worker__;
  return state?.filepath ?? null;
}

export async function recordJobTimes(homeRoot: string): Promise<void> {
  const target = process.env.TRAINYARD_TEST_JOB_TIMES;
  const db = path.join(homeRoot, "home", "trainyard.db");
  if (!target || !existsSync(db)) return;
  const { default: Database } = await import("better-sqlite3");
  const conn = new Database(db, { readonly: true, fileMustExist: true });
  try {
    const rows = conn.prepare("SELECT recipe, jobName, state, createdAt, startedAt, endedAt FROM Job").all() as object[];
    const file = testFile();
    if (rows.length) appendFileSync(target, rows.map((r) => JSON.stringify({ file, ...r })).join("\n") + "\n");
  } finally {
    conn.close();
  }
}
