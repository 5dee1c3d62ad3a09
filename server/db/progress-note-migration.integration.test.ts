import { expect, it } from "vitest";
import { upgradeFrom } from "./migration-test-support";

const MIGRATION = "20261201130837_lifecycle_events_progress_note";

it("upgrading moves a running experiment's note from reason to progressNote; an ended one keeps its reason", async () => {
  const { heldBack, applied, after } = await upgradeFrom(
    MIGRATION,
    (db) => {
      const insert = db.prepare(
        `INSERT INTO Experiment (id, projectId, opId, intentHash, name, status, reason, targetId, targetRevision, datasetId, snapshotSha256, settings, budgetSeconds, updatedAt)
         VALUES (?, 'p', ?, 'h', 'e', ?, ?, 't', 1, 'd', 's', '{}', 60, 0)`,
      );
      insert.run("running", "op1", "running", "Copying the dataset to gpu-box: 40%");
      insert.run("failed", "op2", "failed", "step train failed (exit_code)");
    },
    (db) => db.prepare("SELECT id, reason, progressNote FROM Experiment ORDER BY id").all(),
  );
  expect(applied).toEqual(heldBack);
  expect(heldBack[0]).toBe(MIGRATION);
  expect(after).toEqual([
    { id: "failed", reason: "step train failed (exit_code)", progressNote: null },
    { id: "running", reason: null, progressNote: "Copying the dataset to gpu-box: 40%" },
  ]);
});
