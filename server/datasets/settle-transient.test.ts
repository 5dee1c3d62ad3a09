// A data step that cannot start because the database failed (here a table it reads is
// gone for a moment) is not a verdict on the data: on a real SQLite file the dataset stays
// "profiling" for the next pass, instead of failing with the database's message, and the
// data-steps reconciler says which row it could not settle.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataSteps } from "@/server/controller/reconcilers/data-steps";
import type { Db } from "@/server/db/client";
import { openTestDb } from "@/server/testing/test-db";

let db: Db;
let close: () => Promise<void>;
const SHA = "d".repeat(64);

beforeAll(async () => {
  ({ db, close } = await openTestDb());
  await db.snapshot.create({ data: { sha256: SHA, bytes: BigInt(100) } });
  await db.target.create({ data: { id: "t1", name: "This computer", kind: "local" } });
});
afterAll(async () => close?.());

describe("settling a dataset while the database fails", () => {
  it("leaves it profiling, with no error recorded, and says so in the log", async () => {
    const p = await db.project.create({ data: { id: "p1", name: "Flaky", nameKey: "flaky" } });
    const d = await db.dataset.create({
      data: { projectId: p.id, name: "rows.csv", snapshotSha256: SHA, sourceKind: "upload", sourceName: "rows.csv", status: "profiling" },
    });
    await db.$executeRawUnsafe(`ALTER TABLE "Setting" RENAME TO "Setting_away"`);
    const lines: string[] = [];
    try {
      const steps = dataSteps(db, 60_000);
      const stop = steps.start((l) => lines.push(l));
      await steps.wake(`dataset:${d.id}`);
      await stop();
    } finally {
      await db.$executeRawUnsafe(`ALTER TABLE "Setting_away" RENAME TO "Setting"`);
    }
    const logged = lines.join("\n");
    const after = (await db.dataset.findUnique({ where: { id: d.id } }))!;
    expect(after.status).toBe("profiling");
    expect(after.error).toBeNull();
    expect(logged).toMatch(new RegExp(`data steps: advancing dataset:${d.id}: .*setting`, "is"));
  });
});
