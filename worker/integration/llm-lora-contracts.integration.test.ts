// The llm-lora contracts (contracts/recipes/llm-lora.ts) against the real worker and the
// real recipe: a bad input is refused at submit with the zod issues and no job, and every
// JSON file a real chain of its jobs writes (tiny GPT-2 on CPU, ~1-2 min), with the trusted
// evaluation-lm recipe scoring the adapter in the same environment, parses with the schema
// the server reads it by.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobContract } from "../../contracts/recipes";
import { REPO, makeHome, waitForJob, type Json, type WorkerHome } from "../testing/harness";

const RECIPE = "llm-lora";
const TINY_GPT2 = path.join(REPO, "tests", "fixtures", "models", "lm-buddy-fake-gpt2");
const DATA = path.join(REPO, "training", "recipes", "llm_lora", "tests", "fixtures", "gsm8k-prompt-completion.jsonl");
// preflight takes no learningRate or seed (its contract is strict, like the published schema).
const SMALL = { device: "cpu", maxLength: 64, batchSize: 2, rank: 2 };
const TRAIN = { ...SMALL, learningRate: 0.05, seed: 0 };

let w: WorkerHome;
let environmentId = "";
let counter = 0;

beforeAll(async () => {
  w = await makeHome({ trainingDir: path.join(REPO, "training"), allowedRoots: [TINY_GPT2, path.dirname(DATA)], capacity: { cpus: 2, ramGb: 8 } });
  const res = await w.control({ op: "prepare", opId: `llm-lora-prep-${process.pid}`, recipe: RECIPE });
  expect(res.ok, JSON.stringify(res.error)).toBe(true);
  if (!res.ready) expect((await waitForJob(w, res.jobId, undefined, 900_000)).state).toBe("succeeded");
  environmentId = res.environmentId;
}, 900_000);
afterAll(() => w?.cleanup());

function submit(job: string, input: Record<string, unknown>, recipe = RECIPE): Promise<Json> {
  const opId = `llm-lora-${job}-${process.pid}-${++counter}`;
  return w.control({ op: "submit", opId, intentHash: `intent-${opId}`, recipe, job, environmentId, input, resources: { cpus: 2, ramGb: 4 }, deadlineSeconds: 600 });
}

/** Runs job to success, parses every JSON output it declares with its schema; returns its output reference. */
async function runAndParse(job: string, input: Record<string, unknown>, recipe = RECIPE): Promise<{ ref: string; outputs: Record<string, Json> }> {
  const started = await submit(job, input, recipe);
  expect(started.ok, JSON.stringify(started.error)).toBe(true);
  const r = await waitForJob(w, started.receipt.jobId, undefined, 600_000);
  if (r.state !== "succeeded") {
    const log = await w.control({ op: "logs", jobId: r.jobId, offset: 0 });
    throw new Error(`${recipe}.${job} ended ${r.state} (${r.reason}): ${String(log.data).slice(-3000)}`);
  }
  const outputs: Record<string, Json> = {};
  for (const [file, schema] of Object.entries(jobContract(recipe, job)!.outputs)) {
    const fetched = await w.control({ op: "fetch", jobId: r.jobId, path: file });
    expect(fetched.ok, `${job} ${file}: ${JSON.stringify(fetched.error)}`).toBe(true);
    const parsed = schema.safeParse(JSON.parse(fs.readFileSync(fetched.path, "utf8")));
    expect(parsed.success, `${job} ${file}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
    outputs[file] = parsed.data;
  }
  return { ref: `sha256:${r.outputSha256}`, outputs };
}

describe("llm-lora inputs at submit", () => {
  it("refuses a train input that breaks its contract with the zod issues, and creates no job", async () => {
    const before = await w.control({ op: "list" });
    const res = await submit("train", { model: TINY_GPT2, data: DATA, device: "tpu", rank: 0, targetModules: [], surprise: true });
    expect(res.ok).toBe(false);
    expect(res.error.code).toBe("invalid_input");
    expect(res.error.message).toMatch(/^input of llm-lora\.train does not match its contract: /);
    expect(res.error.details).toMatchObject({ recipe: RECIPE, job: "train" });
    const paths = (res.error.details.issues as { path: string[] }[]).map((i) => i.path.join("."));
    expect(paths.sort()).toEqual(["", "device", "rank", "targetModules"].sort());
    const after = await w.control({ op: "list" });
    expect(after.receipts).toHaveLength(before.receipts.length);
  });
});

describe("real llm-lora outputs parse with their contracts", () => {
  it("every job of the tiny GPT-2's chain, from profile_examples to export, generate and merge", async () => {
    const profile = await runAndParse("profile_examples", { data: DATA, maxPreview: 2 });
    expect(profile.outputs["examples.json"]).toMatchObject({ formats: ["prompt_completion"], preview: [{ line: 1 }, { line: 2 }] });
    const base = await runAndParse("import_base", { source: TINY_GPT2, name: "tiny-gpt2" });
    expect(base.outputs["base.json"]).toMatchObject({ source: "folder", dequantizedFrom: null, architecture: "GPT2LMHeadModel" });
    const data = await runAndParse("check_data", { model: base.ref, data: DATA, evalFraction: 0.15, seed: 3, maxLength: 96 });
    expect(data.outputs["checks.json"].split.strategy).toBe("random_by_prompt");
    const preflight = await runAndParse("preflight", { model: base.ref, data: data.ref, ...SMALL, epochs: 1 });
    expect(preflight.outputs["preflight.json"].memory.fits).toBe(true);
    const train = await runAndParse("train", { model: base.ref, data: data.ref, ...TRAIN, maxSteps: 2, evalEverySteps: 2, checkpointEverySteps: 100 });
    expect(train.outputs["training.json"]).toMatchObject({ steps: 2, stoppedBy: "completed", base: { name: "tiny-gpt2" } });
    // The trusted evaluator runs in llm-lora's environment (one requirements file): the same environmentId is accepted.
    const evaluated = await runAndParse("score", { model: base.ref, adapter: train.ref, data: data.ref, device: "cpu", maxLength: 64, generations: 1, maxNewTokens: 4, answerPattern: "#### (\\S+)", answerExamples: 2 }, "evaluation-lm");
    const receipt = evaluated.outputs["receipt.json"];
    expect(receipt.evaluator.recipe).toBe("evaluation-lm");
    expect(receipt.evaluationContract.baseSnapshotSha256).toBe(base.outputs["base.json"].snapshotSha256);
    expect(receipt.betterThanBase).toBe(receipt.adapter.meanNll < receipt.base.meanNll);
    expect(evaluated.outputs["per_example.json"].adapter).toHaveLength(receipt.examples);
    const exported = await runAndParse("export", { model: base.ref, adapter: train.ref, receipt: evaluated.ref, checks: data.ref, name: "tiny" });
    expect(exported.outputs["verification.json"].receiptMeanNll).toBe(receipt.adapter.meanNll);
    expect(exported.outputs["export.json"].base.snapshotSha256).toBe(base.outputs["base.json"].snapshotSha256);
    const answer = await runAndParse("generate", { model: base.ref, adapter: train.ref, prompt: "What is 2 + 3?", maxNewTokens: 4, device: "cpu" });
    expect(answer.outputs["answer.json"]).toMatchObject({ prompt: "What is 2 + 3?", adapterSha256: exported.outputs["export.json"].adapterSha256 });
    const merged = await runAndParse("merge", { model: base.ref, adapter: train.ref });
    expect(merged.outputs["merged.json"].mergedFrom.adapterSha256).toBe(exported.outputs["export.json"].adapterSha256);
  }, 900_000);
});
