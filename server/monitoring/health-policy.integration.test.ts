/**
 * A health policy's decisions that need no serving process, on a real migrated SQLite
 * database: a rollback the deployment refuses for good (the approved release's version is
 * gone) stops the policy for the owner saying why, instead of retrying forever; a
 * deployment the owner moved to another release is left alone (manual changes win); the
 * daily cap stops it. Each breaching window is a real closed window row.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ZHealthPolicy } from "@/contracts/monitoring/monitoring";
import type { Db } from "@/server/db/client";
import { openTestDb } from "@/server/testing/test-db";
import { applyPolicy } from "./health-policy";

const ACTOR = JSON.stringify({ kind: "owner", name: "owner" });
const POLICY_ACTOR = JSON.stringify({ kind: "policy", name: "health policy of monitor earlier" });

describe("a health policy that cannot or may not roll back", () => {
  let db: Db;
  let close: () => Promise<void>;
  beforeAll(async () => ({ db, close } = await openTestDb()));
  afterAll(() => close?.());

  beforeEach(async () => {
    await db.monitorWindow.deleteMany({});
    await db.monitor.deleteMany({});
    await db.deploymentRelease.deleteMany({});
    await db.deployment.deleteMany({});
    await db.deployment.create({ data: { id: "d1", projectId: "p1", name: "api", nameKey: "api", mode: "resident", targetId: "t1", modelId: "m1", state: "ready", currentReleaseId: "r2" } });
    await db.deploymentRelease.create({ data: { id: "r1", deploymentId: "d1", number: 1, versionId: "v-gone", kind: "create", why: "first", actor: ACTOR } });
    await db.deploymentRelease.create({ data: { id: "r2", deploymentId: "d1", number: 2, versionId: "v2", kind: "switch", why: "second", actor: ACTOR } });
    await db.monitor.create({
      data: {
        id: "m1",
        projectId: "p1",
        deploymentId: "d1",
        releaseId: "r2",
        state: "watching",
        windowRequests: 10,
        minRows: 10,
        alertAfter: 2,
        policy: JSON.stringify(ZHealthPolicy.parse({ rollbackTo: 1, minRequests: 5, cooldownMinutes: 0 })),
        policyState: "armed",
        policyStateData: JSON.stringify({ fromWindow: 1 }),
      },
    });
    // Every request of the window failed.
    await db.monitorWindow.create({ data: { monitorId: "m1", seq: 1, closedAt: new Date(), requests: 10, errors: JSON.stringify({ internal: 10 }), latencyMs: JSON.stringify({ "25": 10 }) } });
  });

  const policyOf = async () => db.monitor.findUniqueOrThrow({ where: { id: "m1" }, select: { policyState: true, policyReason: true, policyStateData: true } });

  it("a rollback refused for good (the approved release's version is gone) stops it for the owner, saying why", async () => {
    await applyPolicy(db, "m1");
    const p = await policyOf();
    expect(p).toMatchObject({ policyState: "waiting", policyStateData: JSON.stringify({ cause: "refused" }) });
    expect(p.policyReason).toBe("window 1: 100.0% of 10 requests failed (limit 5.0%); rolling back to release 1 was refused: Release 1's version no longer exists.");
    expect(await db.deploymentRelease.count()).toBe(2);
    // Not retried: a second pass changes nothing.
    await applyPolicy(db, "m1");
    expect((await policyOf()).policyState).toBe("waiting");
  });

  it("leaves a deployment the owner moved to another release alone, and says so", async () => {
    await db.deployment.update({ where: { id: "d1" }, data: { currentReleaseId: "r1" } });
    await applyPolicy(db, "m1");
    const p = await policyOf();
    expect(p.policyState).toBe("paused");
    expect(p.policyReason).toMatch(/no longer serves the release this policy watches \(it was changed by hand\); it does nothing$/);
    expect(await db.deploymentRelease.count()).toBe(2);
  });

  it("stops at the daily cap of automatic actions", async () => {
    for (const n of [3, 4, 5]) await db.deploymentRelease.create({ data: { deploymentId: "d1", number: n, versionId: "v2", kind: "rollback", why: "earlier", actor: POLICY_ACTOR } });
    await db.deployment.update({ where: { id: "d1" }, data: { currentReleaseId: "r2" } });
    await applyPolicy(db, "m1");
    const p = await policyOf();
    expect(p).toMatchObject({ policyState: "waiting", policyStateData: JSON.stringify({ cause: "daily_limit" }) });
    expect(p.policyReason).toMatch(/no automatic action is left today \(3 in 24 hours\)/);
  });
});
