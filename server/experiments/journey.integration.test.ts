/**
 * The tabular journey through the real server, worker and recipes on real data
 * (penguins): the CLI trains and exports; a server restart mid-training does not stop
 * the experiment or the CLI following it; cancel leaves no process; a repeated start is
 * one experiment.
 */
import { spawnSync } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "@/server/testing/cli-process";
import { pidsWhere } from "@/server/testing/proc-scan";
import { makeTestHome, REPO, startTestServer, TEST_ENVS_DIR, waitFor, type TestHome, type TestServer } from "@/server/testing/server-harness";

const PENGUINS = path.join(REPO, "tests/fixtures/tabular/penguins.csv");
const REAL_TRAINING = { TRAINYARD_TRAINING_DIR: path.join(REPO, "training") };

/** The interpreter of the tabular recipe's environment (built by the first training). */
function tabularPython(): string {
  for (const id of readdirSync(TEST_ENVS_DIR)) {
    const ready = path.join(TEST_ENVS_DIR, id, "ready.json");
    if (existsSync(ready) && JSON.parse(readFileSync(ready, "utf8")).recipe === "tabular") {
      return path.join(TEST_ENVS_DIR, id, "venv", "bin", "python");
    }
  }
  throw new Error(`no tabular environment in ${TEST_ENVS_DIR}`);
}

/**
 * A worker job's processes: its process group (led by the recipe process its receipt
 * records, as the worker signals it), and any process whose starting environment names the
 * job (a cold job's children that left the group). A job forked from a warm runner keeps the
 * runner's starting environment in /proc, so only its group finds it.
 */
function processesOfJob(workerHome: string, workerJobId: string): number[] {
  const receipt = path.join(workerHome, "receipts", `${workerJobId}.json`);
  const leader = existsSync(receipt) ? (JSON.parse(readFileSync(receipt, "utf8")) as { recipeProcess: { pid: number } | null }).recipeProcess : null;
  const inGroup = leader
    ? pidsWhere("stat", (stat) => {
        const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        return f[0] !== "Z" && Number(f[2]) === leader.pid;
      })
    : [];
  const named = pidsWhere("environ", (env) => env.split("\0").includes(`TRAINYARD_JOB_ID=${workerJobId}`));
  return [...new Set([...inGroup, ...named])];
}

// Real training: generous limits so a slow or busy machine is not a failure.
describe("training a prediction model from the CLI", { timeout: 600_000 }, () => {
  let home: TestHome;
  let server: TestServer;
  beforeAll(async () => {
    home = makeTestHome();
    server = await startTestServer({ home, env: REAL_TRAINING });
  });
  afterAll(() => server?.stop());

  it("trains penguins, beats the baseline by the receipt, and downloads a verified export", async () => {
    const out = path.join(home.scratch, "out");
    const run = runCli(server.url, ["train", "--data", PENGUINS, "--target", "species", "--max-minutes", "4", "--out", out, "--json"]);
    const { code, stdout, stderr } = await run.done;
    expect(code, stderr).toBe(0);
    const result = JSON.parse(stdout);
    expect(result).toMatchObject({ status: "succeeded", task: "multiclass", metric: "accuracy", betterThanBaseline: true });
    expect(result.candidate).toBeGreaterThan(0.85);
    expect(result.baseline).toBeLessThan(0.6);
    expect(Object.keys(result.metrics)).toEqual(expect.arrayContaining(["accuracy", "balanced_accuracy", "f1", "roc_auc", "log_loss"]));
    expect(result.split).toEqual({ strategy: "random", column: null, heldOutRows: null });
    const exp = await server.client.experiments.get.query({ id: result.experimentId });
    const sha = createHash("sha256").update(readFileSync(result.exportPath)).digest("hex");
    expect(sha).toBe(exp.exportSha256);
    expect(exp.badges).toEqual({ trainingFinished: true, evaluationPassed: true, betterThanBaseline: true, comparable: true });
    // `show --json` prints the same object.
    const shown = await runCli(server.url, ["experiments", "show", result.experimentId, "--json"]).done;
    expect(JSON.parse(shown.stdout)).toMatchObject({ experimentId: result.experimentId, candidate: result.candidate, baseline: result.baseline });
  });

  it("keeps training and following across a server restart; nothing runs twice", async () => {
    const run = runCli(server.url, ["train", "--data", PENGUINS, "--target", "species", "--max-minutes", "4", "--out", home.scratch, "--json"]);
    const projectId = await waitFor("the Default project", async () => (await server.client.projects.list.query({})).find((p) => p.name === "Default")?.id);
    const training = await waitFor(
      "an experiment in training",
      async () => {
        const list = await server.client.experiments.list.query({ projectId });
        for (const e of list.filter((x) => x.status === "running")) {
          const d = await server.client.experiments.get.query({ id: e.id });
          if (d.steps.find((s) => s.step === "train")?.state === "running") return d;
        }
        return undefined;
      },
      240_000,
      500,
    );
    await server.kill9();
    server = await startTestServer({ home, env: REAL_TRAINING, port: Number(new URL(server.url).port) });
    const { code, stdout, stderr } = await run.done;
    expect(code, stderr).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ experimentId: training.id, status: "succeeded" });
    const jobs = await server.client.jobs.list.query({ limit: 500 });
    const trainJobs = jobs.filter((j) => j.recipe === "tabular" && j.jobName === "train" && j.opId.startsWith(training.opId));
    expect(trainJobs).toHaveLength(1);
  });

  it("cancels an experiment in training and leaves no process behind", async () => {
    const datasets = await server.client.projects.list.query({});
    const projectId = datasets.find((p) => p.name === "Default")!.id;
    const dataset = (await server.client.datasets.list.query({ projectId }))[0]!;
    const start = () =>
      server.client.experiments.start.mutate({
        opId,
        projectId,
        datasetId: dataset.id,
        settings: { target: "species", task: "multiclass", metric: "accuracy", mode: "improve", maxMinutes: 6, maxTrials: 50 },
      });
    const opId = randomUUID();
    // A double click: the same operation id twice, concurrently, is one experiment.
    const [a, b] = await Promise.all([start(), start()]);
    expect(a.id).toBe(b.id);
    const train = await waitFor(
      "training to run",
      async () => {
        const d = await server.client.experiments.get.query({ id: a.id });
        const step = d.steps.find((s) => s.step === "train");
        return step?.state === "running" ? step : undefined;
      },
      240_000,
      500,
    );
    const job = await server.client.jobs.get.query({ id: train.jobId! });
    await waitFor("the recipe process", () => processesOfJob(home.workerHome, job.workerJobId!).length > 0, 60_000);
    await server.client.experiments.cancel.mutate({ id: a.id });
    const ended = await waitFor(
      "the experiment to be cancelled",
      async () => {
        const d = await server.client.experiments.get.query({ id: a.id });
        return d.status === "cancelled" ? d : undefined;
      },
      120_000,
      500,
    );
    expect(ended.steps.find((s) => s.step === "train")?.state).toBe("cancelled");
    expect(processesOfJob(home.workerHome, job.workerJobId!)).toEqual([]);
  });

  it("trains a regression on real data and the export predicts in a fresh process", async () => {
    // The first 1,500 rows of diamonds keep the test short.
    const lines = readFileSync(path.join(REPO, "tests/fixtures/tabular/diamonds.csv"), "utf8").split("\n");
    const file = path.join(home.scratch, "diamonds-1500.csv");
    writeFileSync(file, `${lines.slice(0, 1501).join("\n")}\n`);
    const out = path.join(home.scratch, "regression");
    // One LightGBM (the journey above trains the quick preset): 1,500 rows fit it in seconds (R² above 0.9).
    const { code, stdout, stderr } = await runCli(server.url, ["train", "--data", file, "--target", "price", "--models", "GBM", "--max-minutes", "2", "--out", out, "--json"]).done;
    expect(code, stderr).toBe(0);
    const r = JSON.parse(stdout);
    expect(r).toMatchObject({ status: "succeeded", task: "regression", metric: "rmse", betterThanBaseline: true });
    expect(r.candidate).toBeLessThan(r.baseline * 0.5);
    expect(r.metrics.r2).toBeGreaterThan(0.8);
    // Unpack the export and run its predict.py with the tabular environment's Python.
    const unpacked = path.join(out, "unpacked");
    mkdirSync(unpacked);
    expect(spawnSync("tar", ["xzf", r.exportPath, "-C", unpacked]).status).toBe(0);
    // The archive holds one folder, named like the saved file.
    const [folder, ...others] = readdirSync(unpacked);
    expect(others).toEqual([]);
    expect(`${folder}.tar.gz`).toBe(path.basename(r.exportPath));
    const rows = path.join(out, "rows.csv");
    const header = lines[0]!.split(",").filter((c) => c !== '"price"').join(",");
    const body = lines.slice(1, 6).map((l) => l.split(",").filter((_, i) => i !== 6).join(","));
    writeFileSync(rows, `${header}\n${body.join("\n")}\n`);
    const python = tabularPython();
    const predicted = spawnSync(python, [path.join(unpacked, folder!, "predict.py"), rows], { encoding: "utf8", cwd: unpacked, env: { PATH: process.env.PATH ?? "/usr/bin:/bin" } as unknown as NodeJS.ProcessEnv });
    expect(predicted.status, predicted.stderr).toBe(0);
    const predictionLines = predicted.stdout.trim().split("\n");
    expect(predictionLines).toHaveLength(6);
    const first = Number(predictionLines[1]!.split(",").pop());
    expect(first).toBeGreaterThan(0);
  });

  it("refuses an unknown target column with a clear message", async () => {
    const { code, stderr } = await runCli(server.url, ["train", "--data", PENGUINS, "--target", "no_such_column"]).done;
    expect(code).toBe(1);
    expect(stderr).toMatch(/There is no column "no_such_column"/);
    const missing = await runCli(server.url, ["train", "--data", "/nonexistent/file.csv", "--target", "y"]).done;
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/Cannot read \/nonexistent\/file.csv/);
  });
});
