// A data step that cannot start because the database failed (here a table it reads is
// gone for a moment) is not a verdict on the data: on a real SQLite file the dataset stays
// "profiling" for the next pass, instead of failing with the database's message.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "@/server/db/client";
import { openTestDb } from "@/server/testing/test-db";
import { settleAll } from "./settle";

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
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    await db.$executeRawUnsafe(`ALTER TABLE "Setting" RENAME TO "Setting_away"`);
    let logged = "";
    try {
      await settleAll(db);
      logged = warn.mock.calls.map((c) => String(c[0])).join("\n");
    } finally {
      await db.$executeRawUnsafe(`ALTER TABLE "Setting_away" RENAME TO "Setting"`);
      warn.mockRestore();
    }
    const after = (await db.dataset.findUnique({ where: { id: d.id } }))!;
    expect(after.status).toBe("profiling");
    expect(after.error).toBeNull();
    expect(logged).toMatch(/retried on the next pass.*setting/is);
  });
});
