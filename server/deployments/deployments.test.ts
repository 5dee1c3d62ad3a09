/**
 * The deployment domain on a real SQLite database: keys (shown once, stored hashed, bound
 * to one deployment, revocable), revision-checked stop and resume with their lifecycle
 * events, and the per-release aggregates. Rows are seeded directly: creating one from a
 * trained version is covered through the real server in deployments.integration.test.ts.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/server/db/client";
import { isDomainError } from "@/server/errors";
import { openTestDb } from "@/server/testing/test-db";
import { resume, stop } from "./deployment-actions";
import { CONSOLE_KEY_MINUTES, createConsoleKey, createKey, listKeys, revokeKey } from "./deployment-keys";
import { recordRequest, statsOf } from "./deployment-stats";
import { deploymentView, findDeployment } from "./deployment-views";
import { verifyKey } from "@/server/auth/deployment-key-check";
import { inFlight, startUp } from "./serving-runner";
import { deploymentsToReconcile, reconcileDeployment } from "./deployments-reconcile";
import { health } from "./serve-request";
import { ZDeploymentHealth } from "@/contracts/deployments/serving";

let db: Db;
let close: () => Promise<void>;

async function seedDeployment(name: string, state = "ready") {
  const target = await db.target.upsert({ where: { name: "This computer" }, create: { name: "This computer", kind: "local" }, update: {} });
  const d = await db.deployment.create({
    data: { projectId: "p1", name, nameKey: name.toLowerCase(), mode: "on_demand", targetId: target.id, modelId: "m1", state },
  });
  const r = await db.deploymentRelease.create({ data: { deploymentId: d.id, number: 1, versionId: "v1", kind: "create", why: "test", actor: JSON.stringify({ kind: "owner", name: "owner" }) } });
  await db.deployment.update({ where: { id: d.id }, data: { currentReleaseId: r.id } });
  return { id: d.id, releaseId: r.id };
}

async function refusal(p: Promise<unknown>) {
  try {
    await p;
  } catch (err) {
    if (isDomainError(err)) return { code: err.code, reason: err.reason };
    throw err;
  }
  throw new Error("expected a refusal");
}

beforeAll(async () => {
  ({ db, close } = await openTestDb());
});
afterAll(() => close());

describe("deployment keys", () => {
  it("stores only the key's SHA-256 and a display prefix, and accepts the key on its own deployment", async () => {
    const { id } = await seedDeployment("keys-a");
    const { id: keyId, key } = await createKey(db, id, "ci");
    expect(key).toMatch(/^tyd_[A-Za-z0-9_-]{32}$/);
    const row = await db.deploymentKey.findUniqueOrThrow({ where: { id: keyId } });
    expect(row.keyHash).toBe(createHash("sha256").update(key).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(key);
    expect(row.prefix).toBe(key.slice(0, 10));
    expect(await verifyKey(db, id, key)).toEqual({ ok: true, keyId });
    expect((await listKeys(db, id)).map((k) => ({ name: k.name, prefix: k.prefix, revoked: k.revokedAt !== null }))).toEqual([{ name: "ci", prefix: key.slice(0, 10), revoked: false }]);
  });

  it("refuses a key on another deployment, an unknown key and a revoked key, with the same words", async () => {
    const a = await seedDeployment("keys-b");
    const b = await seedDeployment("keys-c");
    const { id: keyId, key } = await createKey(db, a.id, "one");
    const other = await verifyKey(db, b.id, key);
    const unknown = await verifyKey(db, a.id, `${key}x`);
    expect(other).toEqual({ ok: false, message: expect.any(String) });
    expect(unknown).toEqual(other);
    await revokeKey(db, a.id, keyId);
    expect(await verifyKey(db, a.id, key)).toEqual(other);
    expect(await refusal(revokeKey(db, a.id, keyId))).toEqual({ code: "NOT_FOUND", reason: "not_found" });
  });

  it("revokes by the prefix a list shows, and only a key of that deployment", async () => {
    const a = await seedDeployment("keys-d");
    const b = await seedDeployment("keys-e");
    const { key } = await createKey(db, a.id, "by-prefix");
    expect(await refusal(revokeKey(db, b.id, key.slice(0, 10)))).toMatchObject({ code: "NOT_FOUND" });
    await revokeKey(db, a.id, key.slice(0, 10));
    expect((await verifyKey(db, a.id, key)).ok).toBe(false);
  });
});

describe("console keys", () => {
  it("work on their deployment for an hour, are listed until they expire, then are refused and deleted when the next is made", async () => {
    const a = await seedDeployment("console-a");
    const b = await seedDeployment("console-b");
    const made = new Date(Date.now() - 2 * 3600_000);
    const first = await createConsoleKey(db, a.id, made);
    expect(first.expiresAt.getTime() - made.getTime()).toBe(CONSOLE_KEY_MINUTES * 60_000);
    // Made "in the past" for the test: expired now, like a key an hour old.
    expect((await verifyKey(db, a.id, first.key)).ok).toBe(false);
    const fresh = await createConsoleKey(db, a.id);
    expect(await verifyKey(db, a.id, fresh.key)).toEqual({ ok: true, keyId: expect.any(String) });
    expect((await verifyKey(db, b.id, fresh.key)).ok).toBe(false);
    // The expired key's row is gone, the fresh one is listed with its end; a lasting key has none.
    await createKey(db, a.id, "lasting");
    expect(await db.deploymentKey.count({ where: { deploymentId: a.id, prefix: first.key.slice(0, 10) } })).toBe(0);
    expect((await listKeys(db, a.id)).map((k) => ({ name: k.name, expires: k.expiresAt?.getTime() ?? null }))).toEqual([
      { name: "Console of the deployment page", expires: fresh.expiresAt.getTime() },
      { name: "lasting", expires: null },
    ]);
    // An hour later it is refused and no longer listed.
    const later = new Date(fresh.expiresAt.getTime() + 1000);
    expect((await listKeys(db, a.id, later)).map((k) => k.name)).toEqual(["lasting"]);
    await revokeKey(db, a.id, fresh.key.slice(0, 10));
    expect((await verifyKey(db, a.id, fresh.key)).ok).toBe(false);
  });
});

describe("stop and resume", () => {
  it("stops a ready deployment from the revision the caller saw, recording each move", async () => {
    const { id } = await seedDeployment("stop-a");
    await stop(db, { deploymentId: id, expectedRevision: 1 });
    const d = await deploymentView(db, await findDeployment(db, id));
    expect(d).toMatchObject({ state: "stopped", revision: 3 });
    const events = await db.lifecycleEvent.findMany({ where: { lifecycle: "deployment", entityId: id }, orderBy: { id: "asc" } });
    expect(events.map((e) => `${e.from}→${e.to}`)).toEqual(["ready→stopping", "stopping→stopped"]);
  });

  it("refuses an action on a stale revision with the refreshed deployment, changing nothing", async () => {
    const { id } = await seedDeployment("stale-a");
    const r = await refusal(stop(db, { deploymentId: id, expectedRevision: 7 }));
    expect(r).toEqual({ code: "CONFLICT", reason: "stale_revision" });
    expect((await findDeployment(db, id)).state).toBe("ready");
  });

  it("resumes a stopped on-demand deployment to ready; resuming a ready one is refused by the lifecycle", async () => {
    const { id } = await seedDeployment("resume-a", "stopped");
    await resume(db, { deploymentId: id, expectedRevision: 1 });
    expect((await findDeployment(db, id)).state).toBe("loading");
    await startUp(db, id);
    const d = await findDeployment(db, id);
    expect(d.state).toBe("ready");
    await expect(resume(db, { deploymentId: id, expectedRevision: d.revision })).rejects.toThrow(/ready.*loading|loading/);
  });
});

describe("per-release aggregates", () => {
  it("counts requests, errors by class and latency buckets, and nothing of the request", async () => {
    const { id, releaseId } = await seedDeployment("stats-a");
    await recordRequest(db, { releaseId, deploymentId: id, ms: 3 });
    await recordRequest(db, { releaseId, deploymentId: id, ms: 40 });
    await recordRequest(db, { releaseId, deploymentId: id, ms: 70_000, errorClass: "not_ready" });
    const figures = { requests: 3, errors: 1, p50Ms: 50, p95Ms: null };
    expect(await statsOf(db, id)).toEqual([{ releaseId, requests: 3, errors: { not_ready: 1 }, latencyMs: { "5": 1, "50": 1, inf: 1 }, lastAt: expect.any(Date), allTime: figures, lastHour: figures }]);
  });
});

describe("the public answers are the contracts' shapes", () => {
  it("health of a ready and a stopped deployment parses as ZDeploymentHealth (strict: no field the contract does not name)", async () => {
    const { id } = await seedDeployment("health-a");
    await db.lifecycleEvent.create({ data: { lifecycle: "deployment", entityId: id, from: "loading", to: "ready", reason: "test" } });
    expect(ZDeploymentHealth.parse(await health(db, id))).toMatchObject({ state: "ready", mode: "on_demand", release: { number: 1 }, serving: null });
    const stopped = await seedDeployment("health-b", "stopped");
    expect(ZDeploymentHealth.parse(await health(db, stopped.id))).toMatchObject({ state: "stopped", uptimeSeconds: null });
  });
});

describe("a load or switch no process carries on (a restart in the middle)", () => {
  it("puts an interrupted resident switch back on its current release, and leaves one in progress alone", async () => {
    const { id, releaseId } = await seedDeployment("orphan-a", "switching");
    const busy = await seedDeployment("orphan-b", "switching");
    const old = new Date(Date.now() - 60_000);
    await db.deployment.updateMany({ where: { id: { in: [id, busy.id] } }, data: { mode: "resident", updatedAt: old } });
    inFlight().add(busy.id);
    try {
      for (const { id: row } of await deploymentsToReconcile(db)) await reconcileDeployment(db, row, () => {});
    } finally {
      inFlight().delete(busy.id);
    }
    expect(await findDeployment(db, id)).toMatchObject({ state: "ready", currentReleaseId: releaseId, reason: expect.stringMatching(/interrupted/) });
    expect((await findDeployment(db, busy.id)).state).toBe("switching");
  });
});
