/**
 * Which running jobs keep a holdout from being deleted, on a real migrated database: a job
 * reading the same bytes blocks only when the file would leave the store. A dataset of those
 * bytes (its profile job runs right after an upload) keeps the file, and so must not block.
 * A running search keeps out holdouts of rows only.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/server/db/client";
import { openTestDb, seedJob } from "@/server/testing/test-db";
import { deleteHoldout, holdoutDeletePreview } from "./delete";

const SHA = "a".repeat(64);

describe("deleting a holdout while a job reads its bytes", () => {
  let db: Db;
  let close: () => Promise<void>;
  let holdoutId: string;
  let projectId: string;
  beforeAll(async () => {
    ({ db, close } = await openTestDb());
    projectId = (await db.project.create({ data: { name: "P", nameKey: "p" } })).id;
    const format = JSON.stringify({ format: "csv", delimiter: ",", encoding: "utf-8", header: true });
    holdoutId = (await db.holdout.create({ data: { projectId, name: "held", sha256: SHA, bytes: 10n, fileName: "held.csv", format, rows: 3, columns: "[]" } })).id;
    await db.snapshot.create({ data: { sha256: SHA, bytes: 10n } });
    const job = await seedJob(db, "running");
    await db.job.update({ where: { id: job.id }, data: { recipe: "data", jobName: "profile", input: JSON.stringify({ dataset: `sha256:${SHA}` }) } });
  });
  afterAll(() => close());

  it("is allowed while a dataset holds the same bytes: the file stays, the job loses nothing", async () => {
    const dataset = await db.dataset.create({ data: { projectId, name: "held.csv", snapshotSha256: SHA, sourceKind: "upload", sourceName: "held.csv" } });
    const preview = await holdoutDeletePreview(db, holdoutId);
    expect(preview).toMatchObject({ removesFile: false, blockers: [], canDelete: true });
    await db.dataset.delete({ where: { id: dataset.id } });
  });

  it("is refused, naming the job, when the file would leave with the holdout", async () => {
    const preview = await holdoutDeletePreview(db, holdoutId);
    expect(preview).toMatchObject({ removesFile: true, canDelete: false });
    expect(preview.blockers).toEqual([expect.objectContaining({ kind: "job", label: expect.stringMatching(/\(data\.profile\) is running and reads these rows$/) })]);
    await expect(deleteHoldout(db, holdoutId)).rejects.toThrow(/^The holdout "held" cannot be deleted now: job .+ \(data\.profile\) is running/);
    expect(await db.holdout.count({ where: { id: holdoutId } })).toBe(1);
  });

  it("counts a running search against a holdout of rows, never against a file of examples (searches train tables)", async () => {
    const search = await db.search.create({
      data: { projectId, opId: "search-op", intentHash: "h", name: "Search 1", targetId: "t", datasetId: "d", snapshotSha256: SHA, spec: "{}", createdBy: "person", status: "running" },
    });
    const examples = await db.holdout.create({ data: { projectId, name: "prompts", sha256: "b".repeat(64), bytes: 10n, fileName: "prompts.jsonl", kind: "examples", format: "null", rows: 5, columns: "[]" } });
    expect((await holdoutDeletePreview(db, holdoutId)).blockers.map((b) => b.kind)).toContain("search");
    expect(await holdoutDeletePreview(db, examples.id)).toMatchObject({ blockers: [], canDelete: true });
    await db.search.delete({ where: { id: search.id } });
  });
});
