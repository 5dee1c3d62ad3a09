/**
 * Probes of one computer asked at the same moment (the server's first reconcile pass, an
 * upload's environment check, "Check again") share one worker probe and one answer; a
 * probe asked after it ended is a new one. Real worker bundle on This computer.
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
  it("asked three times at once, runs one probe and gives all three its answer", async () => {
    const targets = targetsService(db);
    const [a, b, c] = await Promise.all([targets.probe(targetId), targets.probe(targetId), targets.freshProbe(targetId, 0)]);
    expect(a).toBe(b);
    expect(a.probedAt).not.toBeNull();
    expect(c.target.probedAt?.toISOString()).toBe(a.probedAt);
    expect(c.probe).toEqual(a.probe);

    const later = await targets.probe(targetId);
    expect(later).not.toBe(a);
    expect(Date.parse(later.probedAt!)).toBeGreaterThan(Date.parse(a.probedAt!));
  });
});
