/**
 * For the bound test and bench/registry only: fills a model up to `upTo` versions by
 * copying one real version row (as more registrations of that training would have written
 * them; 200 trainings take hours). Writes straight to the server's SQLite file, which the
 * registry then reads like any other rows. Never called by the server.
 */
import Database from "better-sqlite3";

const COLUMNS =
  "status, exportSha256, exportBytes, exportFileName, modelSha256, receipt, baselineReceipt, evaluationContractHash, snapshotSha256, splitContractId, settings, identity, targetId, latency, createdAt";

export function copyVersionUpTo(dbFile: string, versionId: string, upTo: number): void {
  const db = new Database(dbFile);
  try {
    const copy = db.prepare(`INSERT INTO "ModelVersion" (id, modelId, number, experimentId, ${COLUMNS}) SELECT ?, modelId, ?, ?, ${COLUMNS} FROM "ModelVersion" WHERE id = ?`);
    const { number } = db.prepare(`SELECT number FROM "ModelVersion" WHERE id = ?`).get(versionId) as { number: number };
    db.transaction(() => {
      for (let n = number + 1; n <= upTo; n++) copy.run(`${versionId}-copy-${n}`, n, `copy-of-experiment-${versionId}-${n}`, versionId);
    })();
  } finally {
    db.close();
  }
}
