// The chain says "Its dataset was deleted." only when it was: on a real SQLite file, a
// dataset read that fails for another reason (here the table cannot be read) leaves the
// experiment running with a "Retrying" note, and the next pass, once the database answers
// again, goes on; a dataset row that is really gone fails the experiment with that reason.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/server/db/client";
import { openTestDb } from "@/server/testing/test-db";
import { advanceExperiment, scheduleAdvance } from "./chain-advance";

let db: Db;
let close: () => Promise<void>;
const SHA = "c".repeat(64);
let project = 0;

beforeAll(async () => {
  ({ db, close } = await openTestDb());
  await db.snapshot.create({ data: { sha256: SHA, bytes: BigInt(100) } });
  await db.target.create({ data: { id: "t1", name: "This computer", kind: "local" } });
});
afterAll(async () => close?.());

async function experimentOnNewDataset(name: string) {
  // One project each: a project holds one dataset per snapshot.
  const p = await db.project.create({ data: { id: `p${++project}`, name, nameKey: name } });
  // A dataset still being profiled with a profile job already recorded: reading it settles
  // nothing, so the chain's first answer is "waiting" (no worker needed).
  const job = await db.job.create({
    data: {
      opId: `op-${name}`, intentHash: "h", targetId: "t1", targetRevision: 1, recipe: "data", recipeVersion: "0.1.0",
      jobName: "profile", environmentId: "e".repeat(64), input: "{}", resources: "{}", deadlineSeconds: 60, state: "running",
    },
  });
  const d = await db.dataset.create({
    data: { projectId: p.id, name: `${name}.csv`, snapshotSha256: SHA, sourceKind: "upload", sourceName: `${name}.csv`, status: "profiling", profileJobId: job.id },
  });
  return db.experiment.create({
    data: {
      projectId: p.id, opId: `exp-${name}-opid`, intentHash: "h", name, targetId: "t1", targetRevision: 1, datasetId: d.id, snapshotSha256: SHA,
      settings: JSON.stringify({ target: "y", task: "binary", metric: "accuracy" }), budgetSeconds: 600,
    },
  });
}

describe("an experiment whose dataset cannot be read", () => {
  it("stays running with a Retrying note when the database fails, and goes on once it answers", async () => {
    const exp = await experimentOnNewDataset("transient");
    await db.$executeRawUnsafe(`ALTER TABLE "Dataset" RENAME TO "Dataset_away"`);
    try {
      await expect(advanceExperiment(db, exp.id)).rejects.toThrow(/Dataset/);
      await scheduleAdvance(db, exp.id, () => {});
    } finally {
      await db.$executeRawUnsafe(`ALTER TABLE "Dataset_away" RENAME TO "Dataset"`);
    }
    const during = (await db.experiment.findUnique({ where: { id: exp.id } }))!;
    expect(during.status).toBe("running");
    expect(during.reason).toBeNull();
    // Prisma starts its message with a blank line: the note still says what failed.
    expect(during.progressNote).toMatch(/^Retrying: \S.*/);

    await advanceExperiment(db, exp.id);
    const after = (await db.experiment.findUnique({ where: { id: exp.id } }))!;
    expect(after.status).toBe("running");
    expect(after.progressNote).toBe("Waiting for the dataset profile.");
  });

  it("fails with “Its dataset was deleted.” when the dataset row is gone", async () => {
    const exp = await experimentOnNewDataset("deleted");
    await db.dataset.delete({ where: { id: exp.datasetId } });
    await advanceExperiment(db, exp.id);
    const after = (await db.experiment.findUnique({ where: { id: exp.id } }))!;
    expect(after.status).toBe("failed");
    expect(after.reason).toBe("Its dataset was deleted.");
  });
});
