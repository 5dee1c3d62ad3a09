import { describe, expect, it } from "vitest";
import { jobContract } from "@/contracts/recipes";
import { candidateOpIds } from "../chain-jobs";
import { readySteps } from "../pipeline";
import { BASELINE_TEST } from "./baseline-test";
import { TRIAL, type TrialContext } from "./tabular-trial";
import { tabularTestContext } from "./tabular-test-context";

const outputs = (names: readonly string[]) => Object.fromEntries(names.map((s, i) => [s, String(i).padStart(64, "0")]));

function trialContext(): TrialContext {
  const base = tabularTestContext(2);
  return { ...base, settings: { ...base.settings, hyperparameters: { GBM: { learning_rate: 0.05 } } }, outputs: outputs(TRIAL.steps.map((s) => s.name)), searchId: "s1", dataExcludeColumns: [], parallelTrials: 1, slurmArray: null };
}

describe("a search's trial pipeline", () => {
  it("never reads the test partition and scores on validation", () => {
    const c = trialContext();
    for (const spec of TRIAL.steps) {
      const input = JSON.stringify(spec.input(c));
      expect(input, spec.name).not.toContain('"test"');
      if (spec.job === "score") expect(spec.input(c)).toMatchObject({ partition: "validation" });
    }
  });

  it("builds every step's input as its recipe's contract accepts it, with the trial's hyperparameters", () => {
    const c = trialContext();
    for (const spec of TRIAL.steps) {
      const parsed = jobContract(spec.recipe, spec.job)!.input.safeParse(spec.input(c));
      expect(parsed.error?.issues ?? [], spec.name).toEqual([]);
    }
    expect(TRIAL.steps.find((s) => s.name === "train")!.input(c)).toMatchObject({ hyperparameters: { GBM: { learning_rate: 0.05 } } });
  });

  it("shares the data and the baseline between the trials of one search", () => {
    const c = trialContext();
    const shared = (name: string) => candidateOpIds(TRIAL.steps.find((s) => s.name === name)!, c)[1];
    expect(shared("features_train")).toBe("search:s1:features_train");
    expect(shared("baseline_validation")).toBe("search:s1:baseline_validation");
    expect(shared("score_baseline_validation")).toBe("search:s1:score_baseline_validation");
    expect(shared("train")).toBeUndefined();
  });

  it("holds training to the trial's booking, less its validation scoring", () => {
    // A 60 s booking with 50 s left: training may take 38 s (12 s kept for predict and score).
    const c = { ...trialContext(), settings: { ...trialContext().settings, maxMinutes: 1 }, remainingSeconds: 50 };
    const train = TRIAL.steps.find((s) => s.name === "train")!;
    expect(train.deadlineSeconds(c)).toBe(38);
    expect(train.input(c)).toMatchObject({ timeLimitSeconds: 33 });
    expect(train.deadlineSeconds({ ...c, remainingSeconds: 5 })).toBe(20);
  });

  it("trains on the whole computer alone, and on an even share of its CPUs beside other trials", () => {
    const train = TRIAL.steps.find((s) => s.name === "train")!;
    const c = { ...trialContext(), cpus: 16 };
    expect(train.cpus(c)).toBe(16);
    expect(train.cpus({ ...c, parallelTrials: 3 })).toBe(5);
    // More trials at once than CPUs: one each (the worker queues what does not fit).
    expect(train.cpus({ ...c, cpus: 2, parallelTrials: 4 })).toBe(1);
    // Its other steps take one CPU either way.
    expect(TRIAL.steps.filter((s) => s.name !== "train").map((s) => s.cpus({ ...c, parallelTrials: 3 }))).toEqual(Array(TRIAL.steps.length - 1).fill(1));
  });

  it("trains once the validation rows exist, and scores after training", () => {
    const started = new Set(["split", "features_train", "features_validation"] as const);
    expect(readySteps(TRIAL, started, { split: "1", features_train: "2", features_validation: "3" }).map((s) => s.name)).toEqual(["train", "baseline_validation"]);
  });
});

describe("the keep-the-baseline scoring", () => {
  it("scores only the baseline, on test, and exports nothing", () => {
    const base = tabularTestContext(2);
    const c = { ...base, outputs: outputs(BASELINE_TEST.steps.map((s) => s.name)) };
    expect(BASELINE_TEST.steps.map((s) => s.name)).toEqual(["split", "features_train", "features_test", "baseline", "score_baseline"]);
    for (const spec of BASELINE_TEST.steps) {
      const parsed = jobContract(spec.recipe, spec.job)!.input.safeParse(spec.input(c));
      expect(parsed.error?.issues ?? [], spec.name).toEqual([]);
    }
    expect(BASELINE_TEST.steps.find((s) => s.name === "score_baseline")!.input(c)).toMatchObject({ partition: "test" });
  });
});
