// prepareEnvironment in-process, as the experiment chain calls it (again on each pass until
// ready): a real database, the real reconcile loop and the real worker bundle building a
// real venv into a fresh folder.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/server/config/env";
import { ensureHome } from "@/server/config/home";
import { startReconcilers } from "@/server/controller/background-loops";
import { clearControllerRuntime, setControllerRuntime, type ControllerRuntime } from "@/server/config/runtime";
import type { Db } from "@/server/db/client";
import { ensureLocalTarget } from "@/server/targets/local/local-target";
import { RECIPE } from "@/server/testing/controller-fixtures";
import { buildWorkerBundle, makeTestHome, REPO } from "@/server/testing/server-harness";
import { openTestDb } from "@/server/testing/test-db";
import { prepareEnvironment } from "./environments";
import { isTerminal } from "./job-state";
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
  stopLoop = startReconcilers(rt, db, () => {});
});
afterAll(async () => {
  await stopLoop?.();
  clearControllerRuntime();
  await closeDb?.();
});

describe("prepareEnvironment", () => {
  it("builds a missing environment as a tracked job with its log, then answers ready at once without a job", async () => {
    const first = await prepareEnvironment(targetId, RECIPE, db);
    expect(first.environmentId).toMatch(/^[0-9a-f]{64}$/);
    expect(first.recipeVersion).toBe("0.3.0");
    expect(first.ready).toBe(false);
    expect(first.job).not.toBeNull();
    const jobId = first.job!.id;
    // Asking again while it builds joins the same job instead of starting a second one.
    expect((await prepareEnvironment(targetId, RECIPE, db)).job?.id).toBe(jobId);
    const deadline = Date.now() + 120_000;
    while (!isTerminal((await jobsService(db).getView(jobId)).state)) {
      if (Date.now() > deadline) throw new Error(`prepare job ${jobId} did not end in 120 s`);
      await new Promise((r) => setTimeout(r, 250));
    }
    const job = await jobsService(db).get(jobId);
    expect(job.state).toBe("succeeded");
    expect(job.jobName).toBe("prepare");
    const log = await jobsService(db).logs({ id: jobId, stream: "log", offset: 0, maxBytes: 64 * 1024 });
    expect(log.data).toContain(first.environmentId);

    const again = await prepareEnvironment(targetId, RECIPE, db);
    expect(again).toEqual({ environmentId: first.environmentId, recipeVersion: "0.3.0", ready: true, job: null });
  });

  it("names the recipe when it does not exist", async () => {
    await expect(prepareEnvironment(targetId, "no-such-recipe", db)).rejects.toThrow(/no recipe "no-such-recipe"/);
  });
});
