// Deletion preview on a real SQLite file: what blocks deleting a snapshot (an active job
// naming it, a listed export made from it) and when the snapshot is shared.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/server/db/client";
import { openTestDb, seedJob } from "@/server/testing/test-db";
import { datasetsService } from "./datasets.service";

let db: Db;
let close: () => Promise<void>;
const SHA = "a".repeat(64);

beforeAll(async () => {
  ({ db, close } = await openTestDb());
  await db.snapshot.create({ data: { sha256: SHA, bytes: BigInt(1234) } });
});
afterAll(async () => close?.());

const dataset = (projectId: string, name = "sales.csv") =>
  db.dataset.create({ data: { projectId, name, snapshotSha256: SHA, sourceKind: "upload", sourceName: name, status: "ready" } });

describe("delete preview", () => {
  it("frees the snapshot's bytes when nothing else uses it", async () => {
    const d = await dataset("p1");
    const p = await datasetsService(db).deletePreview(d.id);
    expect(p).toMatchObject({ removesSnapshot: true, freedBytes: 1234, canDelete: true, blockers: [], sharedWith: [] });
  });

  it("keeps a snapshot another project's dataset uses (nothing freed)", async () => {
    const d = (await db.dataset.findFirst({ where: { projectId: "p1" } }))!;
    const other = await dataset("p2", "sales-copy.csv");
    const p = await datasetsService(db).deletePreview(d.id);
    expect(p).toMatchObject({ removesSnapshot: false, freedBytes: 0, sharedWith: [{ id: other.id, projectId: "p2" }] });
  });

  it("names the other project when a same-named dataset there shares the bytes", async () => {
    const d = (await db.dataset.findFirst({ where: { projectId: "p1" } }))!;
    await db.project.create({ data: { id: "p3", name: "Churn 2025", nameKey: "churn 2025" } });
    const sameName = await dataset("p3", "sales.csv");
    const p = await datasetsService(db).deletePreview(d.id);
    expect(p.sharedWith).toEqual(
      expect.arrayContaining([
        { id: sameName.id, projectId: "p3", projectName: "Churn 2025", name: "sales.csv" },
        // A project row that is gone leaves the name unknown rather than guessed.
        expect.objectContaining({ projectId: "p2", projectName: null }),
      ]),
    );
    await db.dataset.delete({ where: { id: sameName.id } });
  });

  it("is blocked by an active job naming the snapshot and by a listed export, and says which", async () => {
    const d = (await db.dataset.findFirst({ where: { projectId: "p1" } }))!;
    const job = await seedJob(db, "running");
    await db.job.update({ where: { id: job.id }, data: { input: JSON.stringify({ dataset: `sha256:${SHA}` }) } });
    const finished = await seedJob(db, "succeeded");
    await db.job.update({ where: { id: finished.id }, data: { input: JSON.stringify({ dataset: `sha256:${SHA}` }) } });
    await db.experiment.create({
      data: {
        projectId: "p1", opId: "op-exp-1", intentHash: "h", name: "Churn v1", targetId: job.targetId, targetRevision: 1,
        datasetId: d.id, snapshotSha256: SHA, settings: "{}", budgetSeconds: 60, status: "succeeded", exportSha256: "b".repeat(64),
      },
    });
    const svc = datasetsService(db);
    const p = await svc.deletePreview(d.id);
    expect(p.canDelete).toBe(false);
    expect(p.blockers.map((b) => [b.kind, b.id])).toEqual([["job", job.id], ["export", expect.any(String)]]);
    expect(p.blockers[1]!.label).toMatch(/Churn v1/);
    expect(p.usedBy.map((e) => e.name)).toEqual(["Churn v1"]);
    await expect(svc.delete(d.id)).rejects.toMatchObject({ code: "CONFLICT" });
    expect(await db.dataset.findUnique({ where: { id: d.id } })).not.toBeNull();
  });
});
