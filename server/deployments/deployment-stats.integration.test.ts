/**
 * The aggregates on a real, migrated SQLite database: every request counts in its release's
 * total and in its minute; "the last hour" reads only the minutes of the last hour; minutes
 * past the retention window are deleted as newer ones are written.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/server/db/client";
import { openTestDb } from "@/server/testing/test-db";
import { latencyOf } from "./deployment-latency";
import { flushRequestCounts, recordRequest, statsOf } from "./deployment-stats";
import { FLUSH_MS } from "./request-counts";

const at = (iso: string) => new Date(`2026-12-01T${iso}Z`);

describe("a release's requests, all-time and in the last hour", () => {
  let db: Db;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ db, close } = await openTestDb());
    await db.deployment.create({ data: { id: "d1", projectId: "p1", name: "api", nameKey: "api", mode: "resident", targetId: "t1", modelId: "m1", state: "ready", currentReleaseId: "r2" } });
  });
  afterAll(() => close?.());

  it("counts each request in the release's total and in its minute, and answers the last hour apart", async () => {
    const req = (releaseId: string, ms: number, when: string, errorClass?: string) => recordRequest(db, { releaseId, deploymentId: "d1", ms, errorClass }, at(when));
    // Release 1 (no longer current) and an old burst of release 2, then two recent requests.
    await req("r1", 3, "09:00:00");
    for (let i = 0; i < 8; i++) await req("r2", 4000, "10:00:10", i === 0 ? "internal" : undefined);
    await req("r2", 20, "11:15:00");
    await req("r2", 200, "11:59:30", "bad_input");

    const now = at("12:00:00");
    const stats = await statsOf(db, "d1", now);
    const r2 = stats.find((s) => s.releaseId === "r2")!;
    expect(r2).toMatchObject({ requests: 10, errors: { internal: 1, bad_input: 1 }, allTime: { requests: 10, errors: 2, p50Ms: 5000, p95Ms: 5000 } });
    expect(r2.lastHour).toEqual({ requests: 2, errors: 1, p50Ms: 25, p95Ms: 250 });
    expect(stats.find((s) => s.releaseId === "r1")!.lastHour.requests).toBe(0);

    const summary = (await latencyOf(db, "p1", now)).d1!;
    expect(summary).toMatchObject({ releaseId: "r2", requests: 10, errors: 2, lastHour: { requests: 2 }, quietLastHour: false });
    expect((await latencyOf(db, "p1", at("13:30:00"))).d1).toMatchObject({ requests: 10, quietLastHour: true, lastHour: { requests: 0, p50Ms: null } });
  });

  it("keeps one row per release and minute, and deletes minutes past the retention window", async () => {
    await flushRequestCounts(db);
    expect(await db.deploymentStatsBucket.count({ where: { releaseId: "r2", start: at("10:00:00") } })).toBe(1);
    await recordRequest(db, { releaseId: "r2", deploymentId: "d1", ms: 5 }, at("12:30:00"));
    await flushRequestCounts(db);
    // 12:30 keeps two hours: 10:30 onwards. The 09:00 and 10:00 minutes are gone, the totals are not.
    const left = await db.deploymentStatsBucket.findMany({ orderBy: { start: "asc" } });
    expect(left.map((b) => b.start.toISOString().slice(11, 16))).toEqual(["11:15", "11:59", "12:30"]);
    expect((await statsOf(db, "d1", at("12:30:00"))).find((s) => s.releaseId === "r2")).toMatchObject({ requests: 11, lastHour: { requests: 2 } });
  });

  it("writes the counts taken in memory by itself within a few seconds, with no read to prompt it, in one row per release", async () => {
    const before = (await db.deploymentStats.findUnique({ where: { releaseId: "r2" } }))!.requests;
    for (let i = 0; i < 50; i++) await recordRequest(db, { releaseId: "r2", deploymentId: "d1", ms: 7 });
    expect((await db.deploymentStats.findUnique({ where: { releaseId: "r2" } }))!.requests).toBe(before);
    await new Promise((r) => setTimeout(r, FLUSH_MS + 1000));
    expect((await db.deploymentStats.findUnique({ where: { releaseId: "r2" } }))!.requests).toBe(before + 50);
  });
});
