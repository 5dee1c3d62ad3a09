/**
 * The very first training on a computer needs its recipe environments, which This computer
 * starts building at the server's start, before anyone trains; a training started meanwhile
 * joins that build, and waiting for it never counts against the run's budget. Through the
 * real server, worker and recipes: a data home whose tabular environment does not exist yet
 * (the others are the shared prebuilt ones), and a budget far shorter than building it (6 s
 * against ~40-90 s) → the build is under way with no training asked for; the training waits
 * for it, then trains and succeeds, its budget started after the build, and the environment
 * was built once.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "@/server/testing/cli-process";
import { makeTestHome, REPO, startTestServer, TEST_ENVS_DIR, waitFor, type TestHome, type TestServer } from "@/server/testing/server-harness";

const PENGUINS = path.join(REPO, "tests/fixtures/tabular/penguins.csv");

function environmentId(recipeDir: string): string {
  const r = spawnSync("python3", [path.join(REPO, "training/tools/build_env.py"), "--recipe-dir", path.join(REPO, recipeDir), "--envs-dir", TEST_ENVS_DIR, "--print-id"], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`build_env.py --print-id failed: ${r.stderr}`);
  return r.stdout.trim();
}

describe("the first training on a computer", { timeout: 900_000 }, () => {
  let home: TestHome;
  let server: TestServer;

  beforeAll(async () => {
    home = makeTestHome();
    const envs = path.join(home.root, "envs");
    mkdirSync(envs, { recursive: true });
    // Every environment but the tabular one, shared with the other tests; that one is built here.
    for (const recipe of ["training/recipes/data", "training/recipes/export", "training/evaluation"]) {
      const id = environmentId(recipe);
      expect(existsSync(path.join(TEST_ENVS_DIR, id, "ready.json")), `${recipe} is prebuilt`).toBe(true);
      symlinkSync(path.join(TEST_ENVS_DIR, id), path.join(envs, id));
    }
    expect(existsSync(path.join(envs, environmentId("training/recipes/tabular")))).toBe(false);
    server = await startTestServer({ home, env: { TRAINYARD_TRAINING_DIR: path.join(REPO, "training"), TRAINYARD_ENVS_DIR: envs } });
  });
  afterAll(() => server?.stop());

  it("finds its environment being built since the server started, waits for it, then trains within a budget shorter than the build, and succeeds", async () => {
    const out = path.join(home.scratch, "out");
    // Nobody has asked for anything: This computer's first probe started the build.
    const ahead = await waitFor("the tabular environment's build to start", async () => {
      const jobs = await server.client.jobs.list.query({ limit: 50 });
      return jobs.find((j) => j.recipe === "tabular" && j.jobName === "prepare");
    }, 60_000, 250);
    expect(["queued", "admitted", "running"]).toContain(ahead.state);
    // Only the missing one: the prebuilt environments are not built again.
    expect((await server.client.jobs.list.query({ limit: 50 })).filter((j) => j.jobName === "prepare").map((j) => j.recipe)).toEqual(["tabular"]);
    const started = Date.now();
    const run = await runCli(server.url, ["train", "--data", PENGUINS, "--target", "species", "--max-minutes", "0.1", "--out", out, "--json"]).done;
    expect(run.code, run.stderr + run.stdout).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result).toMatchObject({ status: "succeeded", betterThanBaseline: true });
    const exp = await server.client.experiments.get.query({ id: result.experimentId });
    expect(exp.steps.find((s) => s.step === "train")?.state).toBe("succeeded");
    // The build took far longer than the 6 s budget, and the budget was not charged for it.
    const jobs = await server.client.jobs.list.query({ limit: 500 });
    const prepares = jobs.filter((j) => j.recipe === "tabular" && j.jobName === "prepare");
    // The training joined the build begun at start: one build, not two.
    expect(prepares.map((j) => j.id)).toEqual([ahead.id]);
    const prepare = prepares[0];
    expect(prepare?.state).toBe("succeeded");
    const built = new Date(prepare!.endedAt!).getTime();
    expect(built - started).toBeGreaterThan(6_000);
    // The chain's first job (its split) waited for the build: the budget starts with it.
    const split = jobs.find((j) => j.recipe === "data" && j.jobName === "split");
    expect(new Date(split!.createdAt).getTime()).toBeGreaterThanOrEqual(built - 1000);
    expect(readFileSync(result.exportPath).length).toBeGreaterThan(0);
  });
});
