/**
 * The experiment chain (DESIGN "Job lifecycle"): split → features (train, test) → train →
 * predict and baseline → score both → package. Each step is one worker job whose input
 * references earlier steps' outputs by SHA-256 (the worker resolves them), so a step can
 * start on any computer that holds those outputs. Pure data: no I/O here.
 */
import { createHash } from "node:crypto";
import type { TExperimentSettings } from "./experiments.schema";
import { evaluationDeadlineSeconds, preparingDeadlineSeconds, trainingDeadlineSeconds, trainingTimeLimitSeconds } from "./chain-budget";

export const STEP_NAMES = [
  "split",
  "features_train",
  "features_test",
  "train",
  "predict",
  "baseline",
  "score_candidate",
  "score_baseline",
  "package",
] as const;
export type StepName = (typeof STEP_NAMES)[number];

export const PHASES = ["preparing_data", "training", "evaluating", "comparing"] as const;
export type Phase = (typeof PHASES)[number];

export interface ChainContext {
  experimentId: string;
  opId: string;
  projectName: string;
  experimentName: string;
  datasetName: string;
  snapshotSha256: string;
  datasetFormat: Record<string, unknown>;
  settings: TExperimentSettings;
  cpus: number;
  /** Seconds of budget left now (the whole experiment's budget minus time spent). */
  remainingSeconds: number;
  /** The dataset snapshot's size: evaluation and export limits grow with it. */
  datasetBytes?: number;
  /** Output (manifest SHA-256) of each finished step. */
  outputs: Partial<Record<StepName, string>>;
  trainingSeconds: number | null;
  /** From the train job's training.json, once it succeeded: what scoring must use. */
  classLabels: string[] | null;
  trainedPositiveClass: string | null;
}

export interface StepSpec {
  name: StepName;
  phase: Phase;
  recipe: "data" | "tabular" | "evaluation" | "export";
  job: string;
  needs: StepName[];
  /** Steps shared between experiments (same data, same settings) reuse one job by opId. */
  sharedOpId?: (c: ChainContext) => string;
  input: (c: ChainContext) => Record<string, unknown>;
  /** The job's wall deadline (chain-budget.ts: only steps up to training are held to the budget). */
  deadlineSeconds: (c: ChainContext) => number;
  cpus: (c: ChainContext) => number;
}

const ref = (sha: string | undefined) => `sha256:${sha}`;
const out = (c: ChainContext, s: StepName) => ref(c.outputs[s]);
export { reserveSeconds } from "./chain-budget";
const small = () => 1;
const preparing = (c: ChainContext) => preparingDeadlineSeconds(c.remainingSeconds);
const evaluating = (c: ChainContext) => evaluationDeadlineSeconds(c.datasetBytes);

function splitSettings(s: TExperimentSettings) {
  return {
    strategy: s.split.strategy,
    seed: s.seed,
    ...(s.split.strategy === "group" ? { groupColumn: s.split.column } : {}),
    ...(s.split.strategy === "time" ? { timeColumn: s.split.column } : {}),
  };
}

function features(partition: "train" | "test"): StepSpec["input"] {
  return (c) => ({
    dataset: ref(c.snapshotSha256),
    datasetFormat: c.datasetFormat,
    split: out(c, "split"),
    partition,
    target: c.settings.target,
    excludeColumns: c.settings.excludeColumns,
  });
}

function scoreInput(c: ChainContext, predictions: StepName, exportStep: StepName) {
  return {
    predictions: out(c, predictions),
    labels: out(c, "features_test"),
    task: c.settings.task,
    metric: c.settings.metric,
    // Both receipts use the class order and positive class the model was trained with.
    positiveClass: c.trainedPositiveClass ?? c.settings.positiveClass,
    ...(c.classLabels ? { classes: c.classLabels } : {}),
    contract: { snapshotSha256: c.snapshotSha256, splitSha256: c.outputs.split, exportSha256: c.outputs[exportStep] },
  };
}

export const STEPS: readonly StepSpec[] = [
  {
    name: "split",
    phase: "preparing_data",
    recipe: "data",
    job: "split",
    needs: [],
    sharedOpId: (c) =>
      `split:${createHash("sha256").update(JSON.stringify([c.snapshotSha256, c.settings.target, c.settings.task, splitSettings(c.settings)])).digest("hex")}`,
    input: (c) => ({
      dataset: ref(c.snapshotSha256),
      datasetFormat: c.datasetFormat,
      snapshotSha256: c.snapshotSha256,
      target: c.settings.target,
      task: c.settings.task,
      ...splitSettings(c.settings),
    }),
    deadlineSeconds: preparing,
    cpus: small,
  },
  {
    name: "features_train",
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
    phase: "training",
    recipe: "tabular",
    job: "train",
    needs: ["split", "features_train", "features_test"],
    input: (c) => ({
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
    }),
    deadlineSeconds: trainingDeadline,
    cpus: (c) => c.cpus,
  },
  {
    name: "predict",
    phase: "evaluating",
    recipe: "tabular",
    job: "predict",
    needs: ["train", "features_test"],
    input: (c) => ({ model: out(c, "train"), features: out(c, "features_test") }),
    deadlineSeconds: evaluating,
    cpus: small,
  },
  {
    name: "baseline",
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
    // One CPU, one compression thread: more would make it queue behind another experiment's
    // training, which takes the whole computer (export/archive.py uses as many as reserved).
    cpus: small,
  },
];

/** Training's time limit: what remains of the budget after the evaluation reserve. */
function trainingSeconds(c: ChainContext): number {
  return trainingTimeLimitSeconds(c.settings.maxMinutes * 60, c.remainingSeconds);
}

function trainingDeadline(c: ChainContext): number {
  return trainingDeadlineSeconds(c.settings.maxMinutes * 60, c.remainingSeconds);
}

export const RECIPES_USED = [...new Set(STEPS.map((s) => s.recipe))];

export function stepSpec(name: StepName): StepSpec {
  const s = STEPS.find((x) => x.name === name);
  if (!s) throw new Error(`unknown step ${name}`);
  return s;
}

/** Steps whose prerequisites all have outputs and which have no job yet. */
export function readySteps(started: Set<StepName>, outputs: ChainContext["outputs"]): StepSpec[] {
  return STEPS.filter((s) => !started.has(s.name) && s.needs.every((n) => outputs[n] !== undefined));
}
