/**
 * The tabular pipeline (DESIGN "Job lifecycle"): split → features (train, test) → train →
 * predict and baseline → score both → package. Each step is one worker job whose input
 * references earlier steps' outputs by SHA-256 (the worker resolves them), so a step can
 * start on any computer that holds those outputs. Data for the generic chain runner
 * (../pipeline.ts); the only I/O is what it learns from finished steps and collects at the end.
 */
import { pinnedHoldoutsOf } from "@/server/experiments/pinned-holdouts";
import type { InputOf, TableFormat } from "@/contracts/recipes";
import type { Db } from "@/server/db/client";
import type { StepJob } from "../chain-jobs";
import { collectResults, type ExperimentResults } from "../chain-results";
import { evaluationDeadlineSeconds, preparingDeadlineSeconds, trainingDeadlineSeconds, trainingTimeLimitSeconds } from "../chain-budget";
import { ZExperimentSettings, type TExperimentSettings } from "../experiments.schema";
import { ZTraining } from "@/contracts/recipes";
import { readOutput } from "@/server/jobs/read-output";
import { stepOutput, stepOutputRef, type ChainBase, type Pipeline, type StepSpec } from "../pipeline";
import { sha256Ref } from "@/contracts/worker/refs";
import { pinSplit } from "../pin-split";
import { TABULAR_STEPS, type TabularStep } from "./tabular-steps";
import { splitInput, splitOpId } from "./tabular-split";

export { TABULAR_STEPS, type TabularStep };

export interface TabularContext extends ChainBase<TabularStep> {
  datasetFormat: TableFormat;
  settings: TExperimentSettings;
  /** The train job's own wall time once it ran (the model card's training time). */
  trainingSeconds: number | null;
  /** From the train job's training.json, once it succeeded: what scoring must use. */
  classLabels: string[] | null;
  trainedPositiveClass: string | null;
}

type Step = StepSpec<TabularStep, TabularContext>;

/** Single-row predictions timed after the test rows are predicted (a second or less for most models). */
const LATENCY_ROWS = 20;

const ref = sha256Ref;
const sha = (c: TabularContext, s: TabularStep) => stepOutput(c, s);
const out = (c: TabularContext, s: TabularStep) => stepOutputRef(c, s);
const small = () => 1;
const preparing = (c: TabularContext) => preparingDeadlineSeconds(c.remainingSeconds);
const evaluating = (c: TabularContext) => evaluationDeadlineSeconds(c.datasetBytes);

export function features(partition: "train" | "validation" | "test"): (c: TabularContext) => InputOf<"data", "features"> {
  return (c) => ({
    dataset: ref(c.snapshotSha256),
    datasetFormat: c.datasetFormat,
    split: out(c, "split"),
    partition,
    target: c.settings.target,
    excludeColumns: c.settings.excludeColumns,
  });
}

function scoreInput(c: TabularContext, predictions: TabularStep, exportStep: TabularStep): InputOf<"evaluation", "score"> {
  return {
    predictions: out(c, predictions),
    labels: out(c, "features_test"),
    task: c.settings.task,
    metric: c.settings.metric,
    // Both receipts use the class order and positive class the model was trained with.
    positiveClass: c.trainedPositiveClass ?? c.settings.positiveClass,
    ...(c.classLabels ? { classes: c.classLabels } : {}),
    contract: { snapshotSha256: c.snapshotSha256, splitSha256: sha(c, "split"), exportSha256: c.outputs[exportStep] },
  };
}

/** Training's time limit: what remains of the budget after the evaluation reserve. */
function trainingSeconds(c: TabularContext): number {
  return trainingTimeLimitSeconds(c.settings.maxMinutes * 60, c.remainingSeconds);
}

export function trainingDeadline(c: TabularContext): number {
  return trainingDeadlineSeconds(c.settings.maxMinutes * 60, c.remainingSeconds);
}

export const trainInput = (c: TabularContext): InputOf<"tabular", "train"> => ({
      dataset: ref(c.snapshotSha256),
      datasetFormat: c.datasetFormat,
      split: out(c, "split"),
      target: c.settings.target,
      task: c.settings.task,
      metric: c.settings.metric,
      positiveClass: c.settings.positiveClass,
      excludeColumns: c.settings.excludeColumns,
      preset: c.settings.mode,
      timeLimitSeconds: trainingSeconds(c),
      numTrials: c.settings.maxTrials,
      seed: c.settings.seed,
      ...(c.settings.hyperparameters ? { hyperparameters: c.settings.hyperparameters } : {}),
    });

const STEPS: readonly Step[] = [
  {
    name: "split",
    label: "Splitting the data",
    phase: "preparing_data",
    recipe: "data",
    job: "split",
    needs: [],
    sharedOpId: splitOpId,
    input: splitInput,
    deadlineSeconds: preparing,
    cpus: small,
  },
  {
    name: "features_train",
    label: "Preparing training rows",
    phase: "preparing_data",
    recipe: "data",
    job: "features",
    needs: ["split"],
    input: features("train"),
    deadlineSeconds: preparing,
    cpus: small,
  },
  {
    name: "features_test",
    label: "Preparing test rows",
    phase: "preparing_data",
    recipe: "data",
    job: "features",
    needs: ["split"],
    input: features("test"),
    deadlineSeconds: preparing,
    cpus: small,
  },
  {
    name: "train",
    label: "Training models",
    phase: "training",
    recipe: "tabular",
    job: "train",
    needs: ["split", "features_train", "features_test"],
    // A search's final experiment reuses its winning trial's trained model (unless that job ended badly).
    sharedOpId: (c) => c.settings.reuseTrainOpId ?? `${c.opId}:train`,
    input: trainInput,
    deadlineSeconds: trainingDeadline,
    // Training takes the computer's whole CPU capacity; the other steps take one CPU.
    cpus: (c) => c.cpus,
  },
  {
    name: "predict",
    label: "Predicting the test rows",
    phase: "evaluating",
    recipe: "tabular",
    job: "predict",
    needs: ["train", "features_test"],
    // It also times single-row predictions: the version's latency, which a promotion policy may limit.
    input: (c) => ({ model: out(c, "train"), features: out(c, "features_test"), latencyRows: LATENCY_ROWS }),
    deadlineSeconds: evaluating,
    cpus: small,
  },
  {
    name: "baseline",
    label: "Predicting with the baseline",
    phase: "evaluating",
    recipe: "evaluation",
    job: "baseline",
    needs: ["features_train", "features_test"],
    input: (c) => ({ labels: out(c, "features_train"), features: out(c, "features_test"), task: c.settings.task }),
    deadlineSeconds: evaluating,
    cpus: small,
  },
  {
    name: "score_candidate",
    label: "Scoring the model",
    phase: "evaluating",
    recipe: "evaluation",
    job: "score",
    needs: ["predict", "features_test"],
    input: (c) => scoreInput(c, "predict", "train"),
    deadlineSeconds: evaluating,
    cpus: small,
  },
  {
    name: "score_baseline",
    label: "Scoring the baseline",
    phase: "evaluating",
    recipe: "evaluation",
    job: "score",
    needs: ["baseline", "features_test", "train"],
    input: (c) => scoreInput(c, "baseline", "baseline"),
    deadlineSeconds: evaluating,
    cpus: small,
  },
  {
    name: "package",
    label: "Packaging the export",
    phase: "comparing",
    recipe: "export",
    job: "package",
    needs: ["train", "score_candidate", "score_baseline"],
    input: (c) => ({
      model: out(c, "train"),
      receipt: out(c, "score_candidate"),
      baselineReceipt: out(c, "score_baseline"),
      card: {
        project: c.projectName,
        experiment: c.experimentName,
        datasetName: c.datasetName,
        trainingSeconds: c.trainingSeconds ?? 0,
        resources: { cpus: c.cpus },
      },
    }),
    deadlineSeconds: evaluating,
    // The compressor runs one thread per reserved CPU (export/archive.py), so the package
    // takes every CPU that is free when it starts; never more, which would make it queue
    // behind another experiment's training, and one when none is free.
    cpus: (c) => Math.max(1, c.freeCpus),
  },
];

const parse = (s: string | null | undefined): unknown => {
  try {
    return s ? JSON.parse(s) : null;
  } catch {
    return null;
  }
};

/** The train job's wall time and, once it succeeded, the class order it trained with. */
async function learn(db: Db, c: TabularContext, jobs: Map<TabularStep, StepJob>): Promise<void> {
  // The experiment records the split it trains on (its SplitContract), once the split step succeeded.
  await pinSplit(db, c.experimentId, jobs.get("split"));
  const trainJob = jobs.get("train");
  const usage = parse(trainJob?.usage) as { wallSeconds?: number } | null;
  c.trainingSeconds = usage?.wallSeconds ?? null;
  if (!trainJob || !c.outputs.train) return;
  const training = await readOutput(db, trainJob, "training.json", ZTraining);
  c.classLabels = training.classLabels;
  c.trainedPositiveClass = training.positiveClass;
}

/**
 * A context to find an experiment's step jobs by (their operation ids depend only on the
 * experiment, its snapshot and its settings), for views that start nothing.
 */
export function tabularLookupContext(e: { id: string; opId: string; name: string; snapshotSha256: string; targetId: string; holdouts: string }, settings: TExperimentSettings): TabularContext {
  return {
    experimentId: e.id,
    opId: e.opId,
    targetId: e.targetId,
    projectName: "",
    experimentName: e.name,
    datasetName: "",
    snapshotSha256: e.snapshotSha256,
    datasetFormat: { format: "csv" }, // not read: no input is built from this context
    settings,
    cpus: 1,
    freeCpus: 0,
    remainingSeconds: 0,
    outputs: {},
    holdouts: pinnedHoldoutsOf(e.holdouts),
    trainingSeconds: null,
    classLabels: null,
    trainedPositiveClass: null,
  };
}

export function tabularContext(base: ChainBase<TabularStep>, settingsJson: string): TabularContext {
  // The runner checked the table format of a "table" pipeline's dataset before building this.
  if (!base.datasetFormat) throw new Error("a tabular experiment's dataset has no table format");
  return {
    ...base,
    datasetFormat: base.datasetFormat,
    settings: ZExperimentSettings.parse(JSON.parse(settingsJson)),
    trainingSeconds: null,
    classLabels: null,
    trainedPositiveClass: null,
  };
}

export const TABULAR: Pipeline<TabularStep, TabularContext, ExperimentResults> = {
  steps: STEPS,
  budgetedStep: "train",
  dataset: "table",
  context: tabularContext,
  learn,
  collect: (db, exp, jobs) => collectResults(db, exp.id, exp.name, jobs),
};
