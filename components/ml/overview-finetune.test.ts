import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ZLoraChecks, ZLoraTraining } from "@/contracts/recipes/llm-lora";
import { NO_SLURM_STOPS, ZFineTuneSettings, type FineTuneView } from "@/server/finetune/finetune.schema";
import { REPO } from "@/server/testing/server-harness";
import { fineTuneBetterWords, fineTuneCostWords, fineTuneImprovingWords } from "./overview-finetune";

// What the recipe's jobs wrote in a real run (contracts/recipes/fixtures/llm-lora).
const fixture = (name: string): unknown => JSON.parse(readFileSync(path.join(REPO, "contracts/recipes/fixtures/llm-lora", name), "utf8"));
const checks = ZLoraChecks.parse(fixture("check_data.checks.json"));
const training = ZLoraTraining.parse(fixture("train.training.json"));
// The scores the verdict reads, as a receipt of 6 held-out examples gives them.
const receipt = (base: number, adapter: number, exactMatch: { examples: number; base: number; adapter: number } | null = null) => ({
  examples: 6,
  betterThanBase: adapter < base,
  base: { meanNll: base },
  adapter: { meanNll: adapter },
  exactMatch,
});

function view(status: string, over: Partial<FineTuneView> = {}): FineTuneView {
  return {
    experiment: {
      id: "exp1", projectId: "p1", name: "Fine-tune #1 — smol", status, phase: "training", reason: null, progressNote: null,
      targetId: "t1", targetName: "This computer", placement: null, datasetId: "d1", evalDatasetId: null,
      settings: ZFineTuneSettings.parse({ base: { kind: "path", path: "/models/smol" }, rank: 8 }),
      startedAt: "2026-12-01T10:00:00.000Z", endedAt: null,
    },
    step: null, waiting: null, steps: [], error: null, base: null, checks: null, preflight: null, training: null, receipt: null, export: null,
    resumable: false, resumedFrom: null, resumedBy: null,
    ...over,
  };
}

describe("the project Overview for a fine-tuning experiment", () => {
  it("says what is fine-tuned on how many examples and how it is measured, not a column to predict", () => {
    expect(fineTuneImprovingWords(view("running"))).toBe("Fine-tuning smol with a LoRA adapter (rank 8) on your examples, measured by the mean loss per answer token on held-out examples (lower is better)");
    expect(fineTuneImprovingWords(view("succeeded", { checks }))).toBe(
      `Fine-tuning smol with a LoRA adapter (rank 8) on ${checks.counts.train} training examples, measured by the mean loss per answer token on ${checks.counts.eval} held-out examples (lower is better)`,
    );
  });

  it("answers whether the adapter beats its base model from the receipt, with exact match when there is one", () => {
    const better = { ...view("succeeded"), receipt: receipt(1.4123, 0.8912, { examples: 20, base: 0, adapter: 0.05 }) };
    expect(fineTuneBetterWords(better)).toBe(
      "Yes: the adapter's mean loss per answer token is 0.891 against the base model's 1.412 on the same 6 held-out examples; exact match of the answer 5.0 % vs 0.0 % on 20 prompts (Fine-tune #1 — smol).",
    );
    const worse = { ...view("succeeded"), receipt: receipt(0.8, 0.9) };
    expect(fineTuneBetterWords(worse, false)).toBe("No: the adapter's mean loss per answer token is 0.900 against the base model's 0.800 on the same 6 held-out examples, not better.");
  });

  it("says a stopped run was not scored, and whether Resume continues it or already did", () => {
    expect(fineTuneBetterWords(view("cancelled", { resumable: true }))).toBe("No answer: Fine-tune #1 — smol was cancelled before the adapter was scored. Its training saved a checkpoint: Resume continues it.");
    expect(fineTuneBetterWords(view("timed_out", { resumedBy: { id: "exp2", name: "Fine-tune #1 — smol (resumed)" } }))).toBe(
      "No answer: Fine-tune #1 — smol ran out of time before the adapter was scored. It was resumed as Fine-tune #1 — smol (resumed).",
    );
    expect(fineTuneBetterWords(view("running", { step: { name: "train", label: "Training the adapter" } }))).toBe("Not known yet: Fine-tune #1 — smol is still running (training the adapter).");
  });

  it("says the cost as the run's time and its training throughput", () => {
    const t = { step: training.steps, plannedSteps: training.plannedSteps, trainLoss: [], evalLoss: [], tokensPerSecond: training.tokensPerSecond, etaSeconds: null, resumedFromStep: null, slurmStops: NO_SLURM_STOPS, final: training };
    expect(fineTuneCostWords(view("succeeded", { training: t }), 125)).toBe(`2 min 5 s in total on This computer; ${training.steps} training steps at ${Math.round(training.tokensPerSecond)} tokens/s.`);
  });
});
