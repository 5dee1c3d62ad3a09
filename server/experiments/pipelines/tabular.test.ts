import { describe, expect, it } from "vitest";
import { jobContract } from "@/contracts/recipes";
import { reserveSeconds } from "../chain-budget";
import { ZExperimentSettings } from "../experiments.schema";
import { readySteps as readyIn } from "../pipeline";
import { TABULAR, type TabularContext as ChainContext, type TabularStep as StepName } from "./tabular";
import { stepSpec, tabularTestContext, trainInput } from "./tabular-test-context";

const STEPS = TABULAR.steps;
const readySteps = (started: Set<StepName>, outputs: ChainContext["outputs"]) => readyIn(TABULAR, started, outputs);

const ctx = (over: Partial<ChainContext> = {}) => tabularTestContext(10, over);

describe("the tabular pipeline", () => {
  it("starts with the split alone, then both feature steps", () => {
    expect(readySteps(new Set(), {}).map((s) => s.name)).toEqual(["split"]);
    const afterSplit = readySteps(new Set<StepName>(["split"]), { split: "s".repeat(64) }).map((s) => s.name);
    expect(afterSplit).toEqual(["features_train", "features_test"]);
  });

  it("runs the baseline without waiting for training, and packages only after both scores", () => {
    const outputs = { split: "1", features_train: "2", features_test: "3" };
    const started = new Set<StepName>(["split", "features_train", "features_test"]);
    expect(readySteps(started, outputs).map((s) => s.name)).toEqual(["train", "baseline"]);
    // The baseline's score waits for training: both receipts use the model's class order.
    expect(stepSpec("score_baseline").needs).toContain("train");
    expect(stepSpec("package").needs).toEqual(expect.arrayContaining(["score_candidate", "score_baseline", "train"]));
  });

  it("references earlier outputs by hash, never by path", () => {
    const c = ctx({ outputs: { ...ctx().outputs, split: "b".repeat(64), features_test: "c".repeat(64), train: "d".repeat(64) } });
    const input = stepSpec("predict").input(c);
    expect(input).toEqual({ model: `sha256:${"d".repeat(64)}`, features: `sha256:${"c".repeat(64)}`, latencyRows: 20 });
    for (const spec of STEPS) {
      expect(JSON.stringify(spec.input(c))).not.toMatch(/"\//);
    }
  });

  it("builds every step's input as its recipe's contract accepts it", () => {
    const settings = ZExperimentSettings.parse({ target: "species", task: "multiclass", metric: "accuracy", split: { strategy: "group", column: "island" } });
    const contexts = [ctx(), ctx({ classLabels: ["Adelie", "Gentoo"], trainedPositiveClass: null, settings })];
    for (const spec of STEPS) {
      const contract = jobContract(spec.recipe, spec.job);
      expect(contract, `${spec.recipe}.${spec.job}`).not.toBeNull();
      for (const c of contexts) {
        const parsed = contract!.input.safeParse(spec.input(c));
        expect(parsed.error?.issues ?? [], spec.name).toEqual([]);
      }
    }
  });

  it("gives training the budget minus a reserve for evaluation and export", () => {
    const c = ctx({ remainingSeconds: 600 });
    expect(reserveSeconds(600)).toBe(150);
    expect(trainInput(c).timeLimitSeconds).toBe(450);
    expect(trainInput(ctx({ remainingSeconds: 20 })).timeLimitSeconds).toBe(30);
  });

  it("gives training the whole computer and packaging the CPUs free when it starts, one at least", () => {
    expect(stepSpec("train").cpus(ctx({ cpus: 8, freeCpus: 3 }))).toBe(8);
    expect(stepSpec("package").cpus(ctx({ cpus: 8, freeCpus: 3 }))).toBe(3);
    // Another experiment trains on the whole computer: the export waits for one CPU, not for all.
    expect(stepSpec("package").cpus(ctx({ cpus: 8, freeCpus: 0 }))).toBe(1);
    expect(stepSpec("predict").cpus(ctx({ cpus: 8, freeCpus: 8 }))).toBe(1);
  });

  it("shares one split job between experiments with the same data and settings on the same computer", () => {
    const a = stepSpec("split").sharedOpId!(ctx({ opId: "first-op" }));
    const b = stepSpec("split").sharedOpId!(ctx({ opId: "second-op" }));
    expect(a).toBe(b);
    // Another computer's jobs cannot read this one's split output: it splits for itself.
    expect(stepSpec("split").sharedOpId!(ctx({ opId: "third-op", targetId: "another-computer" }))).not.toBe(a);
    const timeSplit = ctx({
      settings: ZExperimentSettings.parse({ target: "species", task: "multiclass", metric: "accuracy", split: { strategy: "group", column: "island" } }),
    });
    expect(stepSpec("split").sharedOpId!(timeSplit)).not.toBe(a);
    expect(a.length).toBeLessThanOrEqual(200);
  });
});

describe("experiment settings", () => {
  it("refuses a metric that does not fit the task, and leaving out the target", () => {
    expect(ZExperimentSettings.safeParse({ target: "y", task: "regression", metric: "accuracy" }).success).toBe(false);
    expect(ZExperimentSettings.safeParse({ target: "y", task: "binary", metric: "rmse" }).success).toBe(false);
    expect(
      ZExperimentSettings.safeParse({ target: "y", task: "binary", metric: "f1", excludeColumns: ["y"] }).success,
    ).toBe(false);
    expect(ZExperimentSettings.safeParse({ target: "y", task: "binary", metric: "f1", maxMinutes: 0 }).success).toBe(false);
  });
});
