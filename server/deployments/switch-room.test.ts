/**
 * switchRoom on a real SQLite database: two of the deployment's budgets plus what the other
 * resident deployments on the same computer hold, against the computer's memory; on demand
 * has no switch room; an unknown memory overlaps; a downtime switch is refused on the routes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/server/db/client";
import { openTestDb } from "@/server/testing/test-db";
import { downtimeRefusal, switchRoom } from "./switch-room";

let db: Db;
let close: () => Promise<void>;
let targetId = "";
let n = 0;

async function seed(a: { mode?: string; state?: string; memoryGb?: number | null; target?: string }) {
  n++;
  return db.deployment.create({
    data: { projectId: "p1", name: `d${n}`, nameKey: `d${n}`, mode: a.mode ?? "resident", targetId: a.target ?? targetId, modelId: "m1", state: a.state ?? "ready", memoryGb: a.memoryGb ?? null },
  });
}

beforeAll(async () => {
  ({ db, close } = await openTestDb());
  targetId = (await db.target.create({ data: { name: "This computer", kind: "local" } })).id;
});
afterAll(() => close());

describe("switchRoom", () => {
  it("overlaps when two budgets fit, and means a downtime when they do not, counting other resident deployments that hold memory there", async () => {
    const d = await seed({ memoryGb: 3 });
    expect(await switchRoom(db, d, 8)).toMatchObject({ kind: "overlap", detail: expect.stringContaining("two releases of 3 GB need 6 GB; the computer has 8 GB") });
    expect(await switchRoom(db, d, 5.9)).toMatchObject({ kind: "downtime", detail: expect.stringMatching(/no room for both releases .*requests answer 503 .*loaded again/) });
    // Another resident deployment loaded there (the tabular default, 2 GB) takes room; a stopped one, one on demand or one elsewhere does not.
    await seed({});
    await seed({ state: "stopped", memoryGb: 50 });
    await seed({ mode: "on_demand" });
    const elsewhere = (await db.target.create({ data: { name: "Lab", kind: "ssh" } })).id;
    await seed({ target: elsewhere, memoryGb: 50 });
    expect(await switchRoom(db, d, 8)).toMatchObject({ kind: "overlap", detail: expect.stringContaining("and 2 GB held by 1 other deployment need 8 GB") });
    expect(await switchRoom(db, d, 7.9)).toMatchObject({ kind: "downtime" });
  });

  it("has nothing to say on demand, and overlaps while the computer's memory is not known", async () => {
    expect(await switchRoom(db, await seed({ mode: "on_demand" }), 1)).toBeNull();
    expect(await switchRoom(db, await seed({ memoryGb: 100 }), null)).toMatchObject({ kind: "overlap" });
  });

  it("refuses requests with Retry-After only while a downtime switch has the current release unloaded", () => {
    const refused = downtimeRefusal("api", "switching with a short downtime to release 2", { plan: "downtime", toRelease: 2 });
    expect(refused).toMatchObject({ code: "UNAVAILABLE", reason: "switching", details: { retryAfterSeconds: 5 } });
    expect(downtimeRefusal("api", "switching to release 2", { plan: "overlap", toRelease: 2 })).toBeNull();
    // Not switching: no switching data (stateDataOf answers null for another state).
    expect(downtimeRefusal("api", "serving process ready", null)).toBeNull();
  });
});
