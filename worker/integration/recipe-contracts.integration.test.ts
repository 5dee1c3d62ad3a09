// The recipe contracts (contracts/recipes) against the real worker and the real Python
// recipes: a job input that breaks its contract is refused at submit with the zod issues
// (no job is created, nothing runs), and every JSON file a real run of each recipe job
// writes parses with the schema the server reads it by.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobContract } from "../../contracts/recipes";
import { loadConfig } from "../src/config";
import { findRecipe } from "../src/recipes";
import { runnerFiles } from "../src/warm/runner-files";
import { REPO, importAndWait, makeHome, submitRecipeJob, waitFor, waitForJob, type Json, type WorkerHome } from "../testing/harness";

const PENGUINS = path.join(REPO, "tests", "fixtures", "tabular", "penguins.csv");
let w: WorkerHome;
const submit = (recipe: string, job: string, input: Record<string, unknown>) => submitRecipeJob(w, recipe, job, input);

interface Done {
  jobId: string;
  ref: string;
}

/** Runs recipe.job to success; returns its id and its output folder's reference. */
async function run(recipe: string, job: string, input: Record<string, unknown>): Promise<Done> {
  const started = await submit(recipe, job, input);
  expect(started.ok, JSON.stringify(started.error)).toBe(true);
  const r = await waitForJob(w, started.receipt.jobId, undefined, 600_000);
  if (r.state !== "succeeded") {
    const log = await w.control({ op: "logs", jobId: r.jobId, offset: 0 });
    throw new Error(`${recipe}.${job} ended ${r.state} (${r.reason}): ${String(log.data).slice(-3000)}`);
  }
  return { jobId: r.jobId, ref: `sha256:${r.outputSha256}` };
}

/** Every JSON output recipe.job declares, read through fetch and parsed with its schema. */
async function parsedOutputs(recipe: string, job: string, done: Done, optional: string[] = []): Promise<Record<string, Json>> {
  const outputs = jobContract(recipe, job)!.outputs;
  const out: Record<string, Json> = {};
  for (const [file, schema] of Object.entries(outputs)) {
    const fetched = await w.control({ op: "fetch", jobId: done.jobId, path: file });
    if (!fetched.ok && optional.includes(file)) continue;
    expect(fetched.ok, `${recipe}.${job} ${file}: ${JSON.stringify(fetched.error)}`).toBe(true);
    const parsed = schema.safeParse(JSON.parse(fs.readFileSync(fetched.path, "utf8")));
    expect(parsed.success, `${recipe}.${job} ${file}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
    out[file] = parsed.data;
  }
  return out;
}

let snapshot = "";
beforeAll(async () => {
  // startWaitSeconds 0: the first training of the tabular recipe starts cold (its runner starting beside it), to compare the forked one with.
  w = await makeHome({ trainingDir: path.join(REPO, "training"), allowedRoots: [path.dirname(PENGUINS)], capacity: { cpus: 2, ramGb: 8 }, warm: { enabled: true, idleSeconds: 300, startWaitSeconds: 0 } });
  const { started, receipt } = await importAndWait(w, PENGUINS);
  expect(receipt?.state, JSON.stringify(started.error)).toBe("succeeded");
  snapshot = receipt!.outputSha256!;
});
afterAll(() => w?.cleanup());

describe("recipe input contracts at submit", () => {
  it("refuses a data.split input that breaks its contract with the zod issues, and creates no job", async () => {
    const before = await w.control({ op: "list" });
    const res = await submit("data", "split", {
      dataset: `sha256:${snapshot}`,
      datasetFormat: { format: "xlsx" },
      target: "species",
      task: "classification",
      strategy: "random",
      seed: -1,
      surprise: true,
    });
    expect(res.ok).toBe(false);
    expect(res.error.code).toBe("invalid_input");
    expect(res.error.message).toMatch(/^input of data\.split does not match its contract: /);
    expect(res.error.details).toMatchObject({ recipe: "data", job: "split" });
    const paths = (res.error.details.issues as { path: string[] }[]).map((i) => i.path.join("."));
    expect(paths.sort()).toEqual(["", "datasetFormat.format", "seed", "snapshotSha256", "task"].sort());
    const after = await w.control({ op: "list" });
    expect(before.ok && after.ok).toBe(true);
    expect(after.receipts).toHaveLength(before.receipts.length);
  });

  it("accepts an input the contract allows and leaves it as sent (defaults are the recipe's)", async () => {
    const done = await run("data", "profile", { dataset: `sha256:${snapshot}`, fileName: "penguins.csv" });
    const input = JSON.parse(fs.readFileSync(path.join(w.home, "jobs", done.jobId, "input.json"), "utf8"));
    expect(Object.keys(input).sort()).toEqual(["dataset", "fileName"]);
  });
});

describe("real recipe outputs parse with their contracts", () => {
  it("data, tabular, evaluation and export outputs of a penguins run (and a regression receipt)", async () => {
    const dataset = `sha256:${snapshot}`;
    const profile = await run("data", "profile", { dataset, fileName: "penguins.csv" });
    const { "profile.json": p } = await parsedOutputs("data", "profile", profile);
    const datasetFormat = p.tableFormat;
    const checks = await run("data", "checks", { dataset, datasetFormat, target: "species" });
    const { "checks.json": c } = await parsedOutputs("data", "checks", checks);
    expect(c.task).toBe("multiclass");

    const split = await run("data", "split", { dataset, datasetFormat, snapshotSha256: snapshot, target: "species", task: "multiclass", strategy: "random", seed: 1 });
    await parsedOutputs("data", "split", split);
    const features = (s: Done, partition: string) => run("data", "features", { dataset, datasetFormat, split: s.ref, partition, target: "species" });
    const [train, test] = [await features(split, "train"), await features(split, "test")];

    const model = await run("tabular", "train", { dataset, datasetFormat, split: split.ref, target: "species", task: "multiclass", metric: "accuracy", timeLimitSeconds: 30, seed: 0 });
    const trained = await parsedOutputs("tabular", "train", model, ["feature_importance.json"]);
    expect(trained["training.json"].featureImportance === null).toBe(!trained["feature_importance.json"]);
    const predict = await run("tabular", "predict", { model: model.ref, features: test.ref });
    const baseline = await run("evaluation", "baseline", { labels: train.ref, features: test.ref, task: "multiclass" });
    const sha = (d: Done) => d.ref.slice("sha256:".length);
    const score = (predictions: Done, exported: Done) =>
      run("evaluation", "score", {
        predictions: predictions.ref,
        labels: test.ref,
        task: "multiclass",
        metric: "accuracy",
        classes: trained["training.json"].classLabels,
        contract: { snapshotSha256: snapshot, splitSha256: sha(split), exportSha256: sha(exported) },
      });
    const [candidate, base] = [await score(predict, model), await score(baseline, baseline)];
    expect((await parsedOutputs("evaluation", "score", candidate))["receipt.json"].task).toBe("multiclass");
    await parsedOutputs("evaluation", "score", base);
    // The same training again, forked from the warm runner the first one started (docs/dev/warm-start.md):
    // AutoGluon's LightGBM and CatBoost (OpenMP) in a forked child train and score the same.
    const trainInput = { dataset, datasetFormat, split: split.ref, target: "species", task: "multiclass", metric: "accuracy", timeLimitSeconds: 30, seed: 0 };
    const env = (await w.control({ op: "inspect", jobId: model.jobId })).receipt.environmentId as string;
    const warm = runnerFiles(loadConfig(w.home), { recipe: "tabular", environmentId: env, preload: findRecipe(path.join(REPO, "training"), "tabular").preload });
    await waitFor("the tabular warm runner to listen", () => fs.existsSync(warm.socket), 120_000);
    const again = await run("tabular", "train", trainInput);
    const launch = async (d: Done) => (await w.control({ op: "inspect", jobId: d.jobId })).receipt.launch;
    expect([await launch(model), await launch(again)]).toEqual(["cold", "warm"]);
    const againScore = await score(await run("tabular", "predict", { model: again.ref, features: test.ref }), again);
    const metricsOf = async (d: Done) => (await parsedOutputs("evaluation", "score", d))["receipt.json"].metrics;
    expect(await metricsOf(againScore)).toEqual(await metricsOf(candidate));
    const modelsOf = (t: Record<string, Json>) => (t["leaderboard.json"].models as Array<{ model: string }>).map((m) => m.model).sort();
    const warmModels = modelsOf(await parsedOutputs("tabular", "train", again, ["feature_importance.json"]));
    expect(warmModels).toEqual(modelsOf(trained));
    expect(warmModels).toEqual(expect.arrayContaining(["CatBoost", "LightGBM", "LightGBMXT"]));

    const exported = await run("export", "package", { model: model.ref, receipt: candidate.ref, baselineReceipt: base.ref, card: { experiment: "contracts", resources: { cpus: 1 } } });
    expect((await parsedOutputs("export", "package", exported))["export.json"].comparison.comparable).toBe(true);

    const rSplit = await run("data", "split", { dataset, datasetFormat, snapshotSha256: snapshot, target: "body_mass_g", task: "regression", strategy: "random", seed: 1 });
    const rFeatures = (partition: string) => run("data", "features", { dataset, datasetFormat, split: rSplit.ref, partition, target: "body_mass_g" });
    const [rTrain, rTest] = [await rFeatures("train"), await rFeatures("test")];
    const rBaseline = await run("evaluation", "baseline", { labels: rTrain.ref, features: rTest.ref, task: "regression" });
    const rScore = await run("evaluation", "score", {
      predictions: rBaseline.ref,
      labels: rTest.ref,
      task: "regression",
      metric: "rmse",
      contract: { snapshotSha256: snapshot, splitSha256: sha(rSplit), exportSha256: sha(rBaseline) },
    });
    expect((await parsedOutputs("evaluation", "score", rScore))["receipt.json"].residuals.definition).toBe("predicted - actual");
  });
});
