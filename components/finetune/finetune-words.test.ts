import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ZLoraPreflight, ZLoraReceipt, ZLoraTraining } from "@/contracts/recipes/llm-lora";
import { fieldErrors, fineTuneVerdict, insideRoots, preflightWords, trainingProgress } from "./finetune-words";
import { NO_SLURM_STOPS } from "@/server/finetune/finetune.schema";

// The recipe's own outputs (contracts/recipes/fixtures/llm-lora, written by make_fixtures.py from real runs).
const fixture = (name: string) => JSON.parse(readFileSync(path.resolve("contracts/recipes/fixtures", name), "utf8"));
const receipt = ZLoraReceipt.parse(fixture("evaluation-lm/score.receipt.json"));
const preflight = ZLoraPreflight.parse(fixture("llm-lora/preflight.preflight.json"));
const training = ZLoraTraining.parse(fixture("llm-lora/train.training.json"));

describe("fineTuneVerdict", () => {
  it("says better than base only when the receipt says so, whatever the numbers", () => {
    const notBetter = fineTuneVerdict({ ...receipt, betterThanBase: false })!;
    expect(notBetter.better).toBe(false);
    expect(notBetter.headline).toMatch(/^The adapter is not better than the base model/);
    // A receipt that judged "better" is read as is: the page never recomputes the comparison.
    const better = fineTuneVerdict({ ...receipt, betterThanBase: true })!;
    expect(better.headline).toMatch(/^The adapter is better than the base model/);
    expect(better.detail).toContain(`same ${receipt.examples} held-out examples`);
  });

  it("has no verdict before the receipt exists", () => {
    expect(fineTuneVerdict(null)).toBeNull();
  });
});

describe("trainingProgress", () => {
  it("reads step of planned, tokens/s and time left while training runs", () => {
    const p = trainingProgress({ step: 3, plannedSteps: 12, trainLoss: [], evalLoss: [], tokensPerSecond: 101.6, etaSeconds: 95, resumedFromStep: null, slurmStops: NO_SLURM_STOPS, final: null });
    expect(p.percent).toBe(25);
    expect(p.words).toBe("step 3 of 12 · 102 tokens/s · about 1 min 35 s left");
  });

  it("takes training.json's counts once training ended, without a time left", () => {
    const p = trainingProgress({ step: 1, plannedSteps: 9, trainLoss: [], evalLoss: [], tokensPerSecond: 1, etaSeconds: 30, resumedFromStep: 2, slurmStops: NO_SLURM_STOPS, final: training });
    expect(p.percent).toBe(100);
    expect(p.words).toMatch(/^step 4 of 4 · \d+ tokens\/s · resumed at step 2$/);
  });

  it("says when Slurm's time limit stopped training and where it went on", () => {
    const live = { step: 30, plannedSteps: 60, trainLoss: [], evalLoss: [], tokensPerSecond: 10, etaSeconds: null, final: null };
    expect(trainingProgress({ ...live, resumedFromStep: 12, slurmStops: { time_limit: 1, preempted: 0 } }).words).toBe("step 30 of 60 · 10 tokens/s · stopped at Slurm's time limit, resumed at step 12");
    expect(trainingProgress({ ...live, resumedFromStep: 20, slurmStops: { time_limit: 2, preempted: 0 } }).words).toBe("step 30 of 60 · 10 tokens/s · stopped at Slurm's time limit 2 times, resumed at step 20");
    expect(trainingProgress({ ...live, resumedFromStep: null, slurmStops: { time_limit: 1, preempted: 0 } }).words).toBe("step 30 of 60 · 10 tokens/s · stopped at Slurm's time limit; started again from the beginning");
  });

  it("says when Slurm preempted training, alone or besides a time limit", () => {
    const live = { step: 30, plannedSteps: 60, trainLoss: [], evalLoss: [], tokensPerSecond: 10, etaSeconds: null, final: null };
    expect(trainingProgress({ ...live, resumedFromStep: 12, slurmStops: { time_limit: 0, preempted: 1 } }).words).toBe("step 30 of 60 · 10 tokens/s · preempted by Slurm, resumed at step 12");
    expect(trainingProgress({ ...live, resumedFromStep: 25, slurmStops: { time_limit: 1, preempted: 3 } }).words).toBe("step 30 of 60 · 10 tokens/s · stopped at Slurm's time limit and preempted by Slurm 3 times, resumed at step 25");
    expect(trainingProgress({ ...live, resumedFromStep: null, slurmStops: { time_limit: 0, preempted: 1 } }).words).toBe("step 30 of 60 · 10 tokens/s · preempted by Slurm; started again from the beginning");
  });

  it("says training has not started before it has any data", () => {
    expect(trainingProgress(null)).toEqual({ percent: null, words: "Training has not started yet." });
  });
});

describe("preflightWords", () => {
  it("states the device check, memory against what is available, and the time estimate", () => {
    const w = preflightWords(preflight);
    expect(w.fits).toBe(true);
    expect(w.device).toMatch(/^cpu: works/);
    expect(w.memory).toMatch(/needed .* of .* available/);
    if (!("time" in preflight)) throw new Error("the fixture preflight fits and carries its time estimate");
    expect(w.time).toContain(preflight.time.note);
    expect(w.fitted).toBeNull();
  });

  it("says when the steps asked for were fitted to the budget, and how many train", () => {
    if (!("time" in preflight)) throw new Error("the fixture preflight fits and carries its time estimate");
    const fitted = ZLoraPreflight.parse({ ...preflight, time: { ...preflight.time, plannedSteps: 35, fittedFrom: 1_000_000 } });
    expect(preflightWords(fitted).fitted).toBe("Fitted to the budget: 1,000,000 steps would not fit the minutes, so the run trains 35.");
  });

  it("lists the smaller settings that would fit when the estimate does not", () => {
    const refused = ZLoraPreflight.parse({
      version: 1,
      device: preflight.device,
      memory: { estimate: preflight.memory.estimate, availableBytes: 1000, lengthUsed: 512, fits: false, fitting: [{ batchSize: 1, maxLength: 128 }] },
    });
    const w = preflightWords(refused);
    expect(w.fits).toBe(false);
    expect(w.time).toBeNull();
    expect(w.fitting).toBe("Settings that would fit: batch size 1 with max length 128.");
  });
});

describe("fieldErrors", () => {
  it("keys zod issues by their dotted path and a domain error by its field or its known code", () => {
    const zod = { message: "bad", data: { zodIssues: [{ path: ["settings", "base", "path"], message: "not a model folder" }], details: null } };
    expect(fieldErrors(zod)).toEqual({ "settings.base.path": "not a model folder" });
    const domain = { message: "/etc is outside the allowed folders", data: { zodIssues: null, details: { field: "settings.base.path" } } };
    expect(fieldErrors(domain)).toEqual({ "settings.base.path": "/etc is outside the allowed folders" });
    const coded = { message: "/m on This computer is not a model folder: it has no config.json.", data: { zodIssues: null, details: { code: "not_a_model" } } };
    expect(fieldErrors(coded)).toEqual({ "settings.base.path": coded.message });
    expect(fieldErrors({ message: "disabled", data: { zodIssues: null, details: { code: "something_else" } } })).toEqual({});
    expect(fieldErrors(new Error("network"))).toEqual({});
  });
});

describe("insideRoots", () => {
  it("matches a path strictly below a root, on a folder boundary, without '..'", () => {
    expect(insideRoots("/data/models/gpt2", ["/data"])).toBe("/data");
    expect(insideRoots("/data/m", ["/data/"])).toBe("/data/");
    expect(insideRoots("/data", ["/data"])).toBeNull();
    expect(insideRoots("/data/../etc", ["/data"])).toBeNull();
    expect(insideRoots("/database/x", ["/data"])).toBeNull();
    expect(insideRoots("relative/x", ["/data"])).toBeNull();
  });
});
