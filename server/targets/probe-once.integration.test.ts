/**
 * A check that needs a recent probe (an upload's environment check) while a probe runs
 * (the server's first reconcile pass) shares that probe and its answer; one asked after it
 * ended, or one that accepts nothing older than its own call (maxAgeMs 0: "a build has just
 * finished"), or one for a changed configuration, is a new one, and an explicit probe
 * ("Check again", after Set up) always asks the worker afresh. Real worker bundle on This computer.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/server/config/env";
import { ensureHome } from "@/server/config/home";
import { clearControllerRuntime, setControllerRuntime } from "@/server/config/runtime";
import type { Db } from "@/server/db/client";
import { buildWorkerBundle, makeTestHome, REPO, TEST_ENVS_DIR } from "@/server/testing/server-harness";
import { openTestDb } from "@/server/testing/test-db";
import { ensureLocalTarget } from "./local/local-target";
import { targetsService } from "./targets.service";

let db: Db;
let closeDb: () => Promise<void>;
let targetId: string;

beforeAll(async () => {
  const bundle = await buildWorkerBundle();
  const home = makeTestHome();
  ({ db, close: closeDb } = await openTestDb());
  const config = loadConfig({ TRAINYARD_HOME: home.home, TRAINYARD_ENVS_DIR: TEST_ENVS_DIR, TRAINYARD_TRAINING_DIR: home.trainingDir, TRAINYARD_WORKER_BUNDLE: bundle });
  const rt = { config, home: ensureHome(home.home), repoRoot: REPO };
  setControllerRuntime(rt);
  targetId = (await ensureLocalTarget(rt, db)).id;
});

afterAll(async () => {
  clearControllerRuntime();
  await closeDb?.();
});

describe("probing a computer", () => {
  it("a fresh-probe check during a probe shares it; an explicit probe never does", async () => {
    const targets = targetsService(db);
    const running = targets.probe(targetId);
    const [a, b, c] = await Promise.all([running, targets.freshProbe(targetId, 60_000), targets.freshProbe(targetId, 60_000)]);
    expect(a.probedAt).not.toBeNull();
    expect(b.target.probedAt?.toISOString()).toBe(a.probedAt);
    expect(c.target.probedAt?.toISOString()).toBe(a.probedAt);
    expect(b.probe).toEqual(a.probe);

    const later = await targets.freshProbe(targetId, 0);
    expect(Date.parse(later.target.probedAt!.toISOString())).toBeGreaterThan(Date.parse(a.probedAt!));

    const [first, second] = await Promise.all([targets.probe(targetId), targets.probe(targetId)]);
    expect(first).not.toBe(second);

    // Joining would hand back the very answer of the probe in flight; its own probe gives another.
    const before = targets.probe(targetId);
    await new Promise((r) => setTimeout(r, 5));
    const [earlier, anew] = await Promise.all([before, targets.freshProbe(targetId, 0)]);
    expect(anew.probe).not.toBe(earlier.probe);

    // A probe of the computer's earlier configuration does not answer for the new one.
    const old = targets.probe(targetId);
    await new Promise((r) => setTimeout(r, 5));
    await db.target.update({ where: { id: targetId }, data: { revision: { increment: 1 }, probe: null, probedAt: null } });
    const [oldAnswer, newAnswer] = await Promise.all([old, targets.freshProbe(targetId, 60_000)]);
    expect(newAnswer.probe).not.toBe(oldAnswer.probe);
  });
});
