/**
 * A search that kept the baseline (nothing beat it by the minimum useful gain on
 * validation) still reports one test score: the baseline's, scored once by the trusted
 * evaluator — split → features (train, test) → baseline → score. It trains nothing and
 * exports nothing.
 */
import { z } from "zod";
import { ZReceipt, type Receipt } from "@/contracts/recipes";
import type { Db } from "@/server/db/client";
import { readOutput } from "@/server/jobs/read-output";
import type { StepJob } from "../chain-jobs";
import { evaluationDeadlineSeconds, preparingDeadlineSeconds } from "../chain-budget";
import { pinSplit } from "../pin-split";
import { stepOutput, stepOutputRef, type ChainBase, type Pipeline, type StepSpec } from "../pipeline";
import { features, tabularContext, type TabularContext } from "./tabular";
import { splitInput, splitOpId } from "./tabular-split";

export const BASELINE_TEST_STEPS = ["split", "features_train", "features_test", "baseline", "score_baseline"] as const;
export type BaselineTestStep = (typeof BASELINE_TEST_STEPS)[number];

export interface BaselineTestContext extends Omit<TabularContext, "outputs"> {
  outputs: Partial<Record<BaselineTestStep, string>>;
}
type Step = StepSpec<BaselineTestStep, BaselineTestContext>;

const asTabular = (c: BaselineTestContext): TabularContext => ({ ...c, outputs: { split: c.outputs.split, features_train: c.outputs.features_train, features_test: c.outputs.features_test } });
const preparing = (c: BaselineTestContext) => preparingDeadlineSeconds(c.remainingSeconds);
const evaluating = (c: BaselineTestContext) => evaluationDeadlineSeconds(c.datasetBytes);

const STEPS: readonly Step[] = [
  { name: "split", label: "Splitting the data", phase: "preparing_data", recipe: "data", job: "split", needs: [], sharedOpId: (c) => splitOpId(asTabular(c)), input: (c) => splitInput(asTabular(c)), deadlineSeconds: preparing, cpus: () => 1 },
  { name: "features_train", label: "Preparing training rows", phase: "preparing_data", recipe: "data", job: "features", needs: ["split"], input: (c) => features("train")(asTabular(c)), deadlineSeconds: preparing, cpus: () => 1 },
  { name: "features_test", label: "Preparing test rows", phase: "preparing_data", recipe: "data", job: "features", needs: ["split"], input: (c) => features("test")(asTabular(c)), deadlineSeconds: preparing, cpus: () => 1 },
  {
    name: "baseline",
    label: "Predicting with the baseline",
    phase: "evaluating",
    recipe: "evaluation",
    job: "baseline",
    needs: ["features_train", "features_test"],
    input: (c) => ({ labels: stepOutputRef(c, "features_train"), features: stepOutputRef(c, "features_test"), task: c.settings.task }),
    deadlineSeconds: evaluating,
    cpus: () => 1,
  },
  {
    name: "score_baseline",
    label: "Scoring the baseline on test",
    phase: "evaluating",
    recipe: "evaluation",
    job: "score",
    needs: ["baseline", "features_test"],
    input: (c) => ({
      predictions: stepOutputRef(c, "baseline"),
      labels: stepOutputRef(c, "features_test"),
      task: c.settings.task,
      metric: c.settings.metric,
      positiveClass: c.settings.positiveClass,
      partition: "test",
      contract: { snapshotSha256: c.snapshotSha256, splitSha256: stepOutput(c, "split"), exportSha256: null },
    }),
    deadlineSeconds: evaluating,
    cpus: () => 1,
  },
];

export interface BaselineTestResults {
  baseline: Receipt;
  export?: undefined;
}
/** The stored results, as readers parse them. */
export const BASELINE_RESULTS = z.object({ baseline: ZReceipt });

export const BASELINE_TEST: Pipeline<BaselineTestStep, BaselineTestContext, BaselineTestResults> = {
  steps: STEPS,
  budgetedStep: "score_baseline",
  dataset: "table",
  context: (base: ChainBase<BaselineTestStep>, settingsJson: string) => ({ ...tabularContext({ ...base, outputs: {} }, settingsJson), outputs: base.outputs }),
  learn: async (db: Db, c: BaselineTestContext, jobs: Map<BaselineTestStep, StepJob>) => pinSplit(db, c.experimentId, jobs.get("split")),
  collect: async (db, _exp, jobs) => {
    const j = jobs.get("score_baseline");
    if (!j) throw new Error("step score_baseline has no job");
    return { baseline: await readOutput(db, j, "receipt.json", ZReceipt) };
  },
};
