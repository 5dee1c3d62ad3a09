import { describe, expect, it } from "vitest";
import { ZLoraReceipt } from "@/contracts/recipes/llm-lora";
import { ZFineTuneSettings, type FineTuneView } from "@/server/finetune/finetune.schema";
import { aboutDuration, describeFineTuneProgress } from "./progress-line";
import { fineTuneJson, fineTuneSummary, type FineTuneJson } from "./result-json";

const SHA = "a".repeat(64);

// The receipt evaluate.py wrote for a GSM8K run, checked against its contract so the test reads a real shape.
const receipt = ZLoraReceipt.parse({
  version: 1,
  evaluator: "trainyard-llm-lora-evaluate/1",
  metric: "mean_nll_per_answer_token",
  direction: "lower",
  evalSetSha256: SHA,
  maxLength: 512,
  examples: 60,
  droppedNoAnswerLeft: 0,
  base: { meanNll: 1.4123, perplexity: 4.105, tokens: 9000, examples: 60 },
  adapter: { meanNll: 0.8912, perplexity: 2.438, tokens: 9000, examples: 60 },
  betterThanBase: true,
  generations: [],
  exactMatch: { pattern: "#### (\\S+)", examples: 20, base: 0, adapter: 0.05 },
});

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
      datasetId: "d1",
      evalDatasetId: null,
      settings: ZFineTuneSettings.parse({ base: { kind: "path", path: "/models/smol" } }),
      startedAt: "2026-12-01T10:00:00.000Z",
      endedAt: null,
    },
    step: null,
    base: null,
    checks: null,
    preflight: null,
    training: null,
    receipt: null,
    export: null,
    resumable: false,
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
  final: null,
  ...over,
});

describe("trainyard finetune --json", () => {
  it("reads the losses and the verdict from the receipt, and the throughput from training", () => {
    const v = view({ receipt, training: training(), export: { sha256: SHA, bytes: 1234, downloadUrl: "/api/experiments/exp1/export" } });
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
        evalExamples: 60,
        answerTokens: 9000,
        trainSteps: 12,
        finalTrainLoss: null,
        exactMatch: { pattern: "#### (\\S+)", examples: 20, base: 0, adapter: 0.05 },
      },
      exportPath: "/out/smol.tar.gz",
      exportSha256: SHA,
      seconds: 212,
      tokensPerSecond: 118.4,
      resumable: false,
    });
    expect(fineTuneSummary(json, null)).toEqual([
      "Experiment exp1: succeeded in 212 s",
      "mean NLL per answer token 0.891 (base 1.412) on 60 held-out examples: better than the base model",
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
      "Training stopped with a checkpoint: Resume continues it from the saved step.",
    ]);
  });
});

describe("trainyard finetune progress", () => {
  it("says the training step, the last loss, tokens/s and the time left", () => {
    const v = view({ step: { name: "train", label: "Training the adapter" }, training: training() }, "running");
    expect(describeFineTuneProgress(v)).toBe("[running] Training the adapter: step 12/50, loss 1.234, 118 tokens/s, about 3 min left");
    const resumed = view({ step: { name: "train", label: "Training the adapter" }, training: training({ resumedFromStep: 8, etaSeconds: null, plannedSteps: null }) }, "running");
    expect(describeFineTuneProgress(resumed)).toBe("[running] Training the adapter: step 12, loss 1.234, 118 tokens/s, resumed at step 8");
  });

  it("says only the step before training and the phase once ended", () => {
    const importing = view({ step: { name: "import_base", label: "Importing the base model" }, experiment: { ...view().experiment, status: "running", progressNote: "waiting for a free CPU" } });
    expect(describeFineTuneProgress(importing)).toBe("[running] Importing the base model (waiting for a free CPU)");
    expect(describeFineTuneProgress(view({ training: training() }))).toBe("[succeeded] training");
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
