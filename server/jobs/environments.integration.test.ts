// ensureEnvironment in-process, as the experiment chain calls it: a real database, the
// real reconcile loop and the real worker bundle building a real venv into a fresh folder.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/server/config/env";
import { ensureHome } from "@/server/config/home";
import { startReconcileLoop } from "@/server/controller/reconcile-loop";
import { clearControllerRuntime, setControllerRuntime, type ControllerRuntime } from "@/server/config/runtime";
import type { Db } from "@/server/db/client";
import { ensureLocalTarget } from "@/server/targets/local/local-target";
import { RECIPE } from "@/server/testing/controller-fixtures";
import { buildWorkerBundle, makeTestHome, REPO } from "@/server/testing/server-harness";
import { openTestDb } from "@/server/testing/test-db";
import { ensureEnvironment } from "./environments";
import { jobsService } from "./jobs.service";

let db: Db;
let closeDb: () => Promise<void>;
let stopLoop: () => Promise<void>;
let targetId: string;

beforeAll(async () => {
  const bundle = await buildWorkerBundle();
  const home = makeTestHome();
  const envsDir = path.join(home.root, "envs");
  mkdirSync(envsDir);
  ({ db, close: closeDb } = await openTestDb());
  const config = loadConfig({
    TRAINYARD_HOME: home.home,
    TRAINYARD_ENVS_DIR: envsDir,
    TRAINYARD_TRAINING_DIR: home.trainingDir,
    TRAINYARD_WORKER_BUNDLE: bundle,
    TRAINYARD_RECONCILE_MS: "200",
  });
  const rt: ControllerRuntime = { config, home: ensureHome(home.home), repoRoot: REPO };
  setControllerRuntime(rt);
  targetId = (await ensureLocalTarget(rt, db)).id;
  stopLoop = startReconcileLoop(rt, db, () => {});
});
afterAll(async () => {
  await stopLoop?.();
  clearControllerRuntime();
  await closeDb?.();
});

describe("ensureEnvironment", () => {
  it("builds a missing environment as a tracked job, reports progress and log text, then answers at once", async () => {
    const progress: { state: string; log: string }[] = [];
    const first = await ensureEnvironment(targetId, RECIPE, { onProgress: (p) => progress.push(p), timeoutMs: 120_000 }, db);
    expect(first.environmentId).toMatch(/^[0-9a-f]{64}$/);
    expect(first.recipeVersion).toBe("0.3.0");
    expect(first.jobId).not.toBeNull();
    const job = await jobsService(db).get(first.jobId!);
    expect(job.state).toBe("succeeded");
    expect(job.jobName).toBe("prepare");
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.map((p) => p.log).join("")).toContain(first.environmentId);

    const again = await ensureEnvironment(targetId, RECIPE, {}, db);
    expect(again).toEqual({ environmentId: first.environmentId, recipeVersion: "0.3.0", jobId: null });
  });

  it("names the recipe when it does not exist", async () => {
    await expect(ensureEnvironment(targetId, "no-such-recipe", {}, db)).rejects.toThrow(/no recipe "no-such-recipe"/);
  });
});
