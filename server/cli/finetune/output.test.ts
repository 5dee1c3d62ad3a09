import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ZLoraBase, ZLoraChecks, ZLoraPreflight, ZLoraReceipt, ZLoraTraining } from "@/contracts/recipes/llm-lora";
import { ZFineTuneSettings, type FineTuneView } from "@/server/finetune/finetune.schema";
import { REPO } from "@/server/testing/server-harness";
import { aboutDuration, describeFineTuneProgress, milestoneLines } from "./progress-line";
import { fineTuneJson, fineTuneSummary, type FineTuneJson } from "./result-json";

const SHA = "a".repeat(64);

// What the recipe's jobs wrote in a real run (contracts/recipes/fixtures/llm-lora, made by make_fixtures.py).
const fixture = (name: string): unknown => JSON.parse(readFileSync(path.join(REPO, "contracts/recipes/fixtures/llm-lora", name), "utf8"));
const realReceipt = ZLoraReceipt.parse(fixture("../evaluation-lm/score.receipt.json"));
const realTraining = ZLoraTraining.parse(fixture("train.training.json"));
const { files: _files, ...ggufBase } = ZLoraBase.parse(fixture("import_base.gguf.base.json"));
const realChecks = ZLoraChecks.parse(fixture("check_data.checks.json"));
const realPreflight = ZLoraPreflight.parse(fixture("preflight.preflight.json"));
// The tiny model's adapter is not better; this one is, with exact match, as a GSM8K run of SmolLM2 reads.
const receipt = {
  ...realReceipt,
  base: { ...realReceipt.base, meanNll: 1.4123, perplexity: 4.105 },
  adapter: { ...realReceipt.adapter, meanNll: 0.8912, perplexity: 2.438 },
  betterThanBase: true,
  exactMatch: { pattern: "#### (\\S+)", examples: 20, base: 0, adapter: 0.05 },
};

function view(over: Partial<FineTuneView> = {}, status = "succeeded"): FineTuneView {
  return {
    experiment: {
      id: "exp1",
      projectId: "p1",
      name: "SmolLM2 on GSM8K",
      status,
      phase: "training",
      reason: null,
      progressNote: null,
      targetId: "t1",
      targetName: "This computer",
      placement: null,
      datasetId: "d1",
      evalDatasetId: null,
      settings: ZFineTuneSettings.parse({ base: { kind: "path", path: "/models/smol" } }),
      startedAt: "2026-12-01T10:00:00.000Z",
      endedAt: null,
    },
    step: null,
    waiting: null,
    steps: [],
    error: null,
    base: null,
    checks: null,
    preflight: null,
    training: null,
    receipt: null,
    export: null,
    resumable: false,
    resumedFrom: null,
    resumedBy: null,
    ...over,
  };
}

const training = (over: Partial<NonNullable<FineTuneView["training"]>> = {}): NonNullable<FineTuneView["training"]> => ({
  step: 12,
  plannedSteps: 50,
  trainLoss: [{ step: 10, loss: 1.61 }, { step: 12, loss: 1.2345 }],
  evalLoss: [],
  tokensPerSecond: 118.4,
  etaSeconds: 190,
  resumedFromStep: null,
  slurmStops: { time_limit: 0, preempted: 0 },
  final: null,
  ...over,
});

describe("trainyard finetune --json", () => {
  it("reads the losses and the verdict from the receipt, and the throughput from training", () => {
    const v = view({ receipt, training: training({ final: realTraining }), export: { sha256: SHA, bytes: 1234, downloadUrl: "/api/experiments/exp1/export" } });
    const json = fineTuneJson(v, { exportPath: "/out/smol.tar.gz", seconds: 212 });
    expect(json).toEqual<FineTuneJson>({
      experimentId: "exp1",
      status: "succeeded",
      baseLoss: 1.4123,
      adapterLoss: 0.8912,
      betterThanBase: true,
      metrics: {
        basePerplexity: 4.105,
        adapterPerplexity: 2.438,
        evalExamples: realReceipt.examples,
        answerTokens: realReceipt.adapter.tokens,
        trainSteps: realTraining.steps,
        finalTrainLoss: realTraining.finalTrainLoss,
        exactMatch: { pattern: "#### (\\S+)", examples: 20, base: 0, adapter: 0.05 },
      },
      exportPath: "/out/smol.tar.gz",
      exportSha256: SHA,
      seconds: 212,
      tokensPerSecond: realTraining.tokensPerSecond,
      resumable: false,
      resumedFromId: null,
      resumedById: null,
      error: null,
    });
    expect(fineTuneSummary(json, null)).toEqual([
      "Experiment exp1: succeeded in 212 s",
      `mean NLL per answer token 0.891 (base 1.412) on ${realReceipt.examples} held-out examples: better than the base model`,
      "exact match of the answer on 20 prompts: 5.0 % (base 0.0 %)",
      "Export: /out/smol.tar.gz",
    ]);
  });

  it("has every key, null, before an evaluation, and says a stopped run can be resumed", () => {
    const json = fineTuneJson(view({ resumable: true }, "cancelled"), { exportPath: null, seconds: 30 });
    expect(json).toMatchObject({ status: "cancelled", baseLoss: null, adapterLoss: null, betterThanBase: null, exportPath: null, exportSha256: null, tokensPerSecond: null, resumable: true });
    expect(Object.values(json.metrics).every((m) => m === null)).toBe(true);
    expect(fineTuneSummary(json, "cancelled by the owner")).toEqual([
      "Experiment exp1: cancelled in 30 s (cancelled by the owner)",
      "Training stopped with a checkpoint: `trainyard finetune --resume exp1` (or Resume on the experiment's page) continues it from the saved step.",
    ]);
  });

  it("gives a refusal's fix as settings in --json and as the flags to add in text", () => {
    const step = "Checking the device, memory and time";
    const message = "The data or settings cannot be used: this run needs about 31.0 min but the budget is 11.2 min; maxSteps 12 would fit (or fewer epochs, a shorter maxLength)";
    const fix = "Start it again with the settings the message says would fit (maxSteps, fewer epochs, a shorter maxLength), or with more minutes.";
    const overBudget = view({ error: { code: "over_budget", message, fix, step, retry: { words: "Run again with at most 12 steps", settings: { maxSteps: 12 } } } }, "failed");
    const json = fineTuneJson(overBudget, { exportPath: null, seconds: 95 });
    expect(json.error).toEqual({ code: "over_budget", message, fix, step, retry: { maxSteps: 12 } });
    expect(fineTuneSummary(json, null)).toEqual([
      "Experiment exp1: failed in 95 s",
      `Failed at "${step}": ${message}`,
      `What to do: ${fix}`,
      "To fit, run `trainyard finetune` again with the same flags and --max-steps 12.",
    ]);
    const memory = view({ error: { code: "does_not_fit_memory", message: "…", fix: "…", step, retry: { words: "Run again with batch size 2 and max length 256", settings: { batchSize: 2, maxLength: 256 } } } }, "failed");
    const memoryJson = fineTuneJson(memory, { exportPath: null, seconds: 40 });
    expect(memoryJson.error?.retry).toEqual({ batchSize: 2, maxLength: 256 });
    expect(fineTuneSummary(memoryJson, null).at(-1)).toBe("To fit, run `trainyard finetune` again with the same flags and --batch-size 2 --max-length 256.");
    // No fix the recipe could name: the key is there, null, and the text adds nothing.
    const noFix = fineTuneJson(view({ error: { code: "over_budget", message, fix, step, retry: null } }, "failed"), { exportPath: null, seconds: 95 });
    expect(noFix.error?.retry).toBeNull();
    expect(fineTuneSummary(noFix, null)).toHaveLength(3);
  });

  it("names the attempt that resumed a stopped run, which is then no longer resumable", () => {
    const json = fineTuneJson(view({ resumedBy: { id: "exp2", name: "SmolLM2 on GSM8K (resumed)" } }, "cancelled"), { exportPath: null, seconds: 30 });
    expect(json).toMatchObject({ resumable: false, resumedFromId: null, resumedById: "exp2" });
    expect(fineTuneSummary(json, null)).toEqual(["Experiment exp1: cancelled in 30 s", "Resumed as experiment exp2."]);
  });
});

describe("trainyard finetune progress", () => {
  it("says the training step, the last loss, tokens/s and the time left", () => {
    const v = view({ step: { name: "train", label: "Training the adapter" }, training: training() }, "running");
    expect(describeFineTuneProgress(v)).toBe("[running] Training the adapter: step 12/50, loss 1.234, 118 tokens/s, about 3 min left");
    const resumed = view({ step: { name: "train", label: "Training the adapter" }, training: training({ resumedFromStep: 8, etaSeconds: null, plannedSteps: null }) }, "running");
    expect(describeFineTuneProgress(resumed)).toBe("[running] Training the adapter: step 12, loss 1.234, 118 tokens/s, resumed at step 8");
  });

  it("counts the steps against the preflight's plan before training's first event names them", () => {
    const starting = training({ step: 0, plannedSteps: null, trainLoss: [], tokensPerSecond: null, etaSeconds: null });
    const v = view({ step: { name: "train", label: "Training the adapter" }, training: starting, preflight: realPreflight }, "running");
    expect(describeFineTuneProgress(v)).toBe("[running] Training the adapter: step 0/12");
  });

  it("says only the step before training and the phase once ended", () => {
    const importing = view({ step: { name: "import_base", label: "Importing the base model" }, experiment: { ...view().experiment, status: "running", progressNote: "waiting for a free CPU" } });
    expect(describeFineTuneProgress(importing)).toBe("[running] Importing the base model (waiting for a free CPU)");
    expect(describeFineTuneProgress(view({ training: training() }))).toBe("[succeeded] Training");
  });

  it("says what a waiting step waits for and which job holds it", () => {
    const waiting = "Waiting for CPUs: the training “Experiment 3” is using them (2 of 2 reserved; this needs 2).";
    const v = view({ step: { name: "train", label: "Training the adapter" }, waiting }, "running");
    expect(describeFineTuneProgress(v)).toBe(`[running] Training the adapter — ${waiting}`);
  });

  it("says the imported base, the data checks and the preflight estimate once each, from the recipe's own files", () => {
    const v = view({ base: ggufBase, checks: realChecks, preflight: realPreflight }, "running");
    expect(milestoneLines(v)).toEqual([
      { key: "base", line: "Base model: SmolLM2-135M-Instruct.Q4_1 (LlamaForCausalLM, 134.5 M parameters, dequantized from Q4_1)." },
      { key: "checks", line: `Data: ${realChecks.counts.train} training and ${realChecks.counts.eval} evaluation examples, ${realChecks.tokens.train.overMaxLength} longer than 96 tokens (they keep their start).` },
      { key: "preflight", line: `Preflight on cpu: about 1 min for 12 steps on cpu with 2 CPU thread(s) (${Math.round("time" in realPreflight ? realPreflight.smokeStep.tokensPerSecond : 0)} tokens/s measured on the longest examples).` },
    ]);
    const tooBig = { ...realPreflight, memory: { ...realPreflight.memory, fits: false as const, fitting: [{ batchSize: 1, maxLength: 256 }] } };
    const { smokeStep: _s, time: _t, ...refused } = tooBig as typeof tooBig & { smokeStep?: unknown; time?: unknown };
    expect(milestoneLines(view({ preflight: ZLoraPreflight.parse(refused) }))).toEqual([
      { key: "preflight", line: "Preflight on cpu: does not fit in memory; these would: batch 1 x 256 tokens." },
    ]);
  });

  it("rounds the estimate to what an estimate can say", () => {
    expect([aboutDuration(42.4), aboutDuration(89), aboutDuration(90), aboutDuration(190), aboutDuration(3 * 3600 + 300)]).toEqual([
      "about 42 s",
      "about 89 s",
      "about 2 min",
      "about 3 min",
      "about 3 h 5 min",
    ]);
  });
});
