/**
 * One trial of a search (issue 17): the tabular pipeline up to training, then the trusted
 * evaluator on the VALIDATION partition only — split → features (train, validation) →
 * train (the trial's hyperparameters) → predict validation → score it. The baseline's
 * validation score is computed once per search (its steps are shared by every trial).
 * Nothing here reads the test partition: a search selects on validation, and its final
 * experiment (a plain tabular one) scores the chosen model on test once.
 */
import { z } from "zod";
import { ZReceipt, ZTraining, type InputOf, type Receipt } from "@/contracts/recipes";
import { ZSlurmArrayMember, type TSlurmArrayMember } from "@/contracts/worker";
import type { Db } from "@/server/db/client";
import { readOutput } from "@/server/jobs/read-output";
import type { StepJob } from "../chain-jobs";
import { ZExperimentSettings } from "../experiments.schema";
import { pinSplit } from "../pin-split";
import { stepOutput, stepOutputRef, type ChainBase, type Pipeline, type StepSpec } from "../pipeline";
import { evaluationDeadlineSeconds, preparingDeadlineSeconds } from "../chain-budget";
import { features, tabularContext, trainInput, type TabularContext } from "./tabular";
import { splitInput, splitOpId } from "./tabular-split";

export const TRIAL_STEPS = [
  "split",
  "features_train",
  "features_validation",
  "train",
  "predict_validation",
  "baseline_validation",
  "score_validation",
  "score_baseline_validation",
] as const;
export type TrialStep = (typeof TRIAL_STEPS)[number];

/** A trial experiment's settings: the tabular settings it trains with, and whose trial it is. */
export const ZTrialSettings = z.strictObject({
  experiment: ZExperimentSettings,
  searchId: z.string().min(1).max(64),
  number: z.int().min(1),
  /**
   * The search's own left-out columns. The rows every trial shares are prepared with these
   * only: a trial that also leaves out a flagged column still finds it there (predict
   * reads only the columns its model was trained with).
   */
  dataExcludeColumns: z.array(z.string().min(1).max(500)).max(10_000).default([]),
  /** Trials its search runs at once: its training takes that share of the computer's CPUs. */
  parallelTrials: z.int().min(1).default(1),
  /** On a Slurm computer, its training is this task of its round's job array (search-rounds.ts); null: a job of its own. */
  slurmArray: ZSlurmArrayMember.nullable().default(null),
});
export type TrialSettings = z.infer<typeof ZTrialSettings>;

export interface TrialContext extends Omit<TabularContext, "outputs"> {
  outputs: Partial<Record<TrialStep, string>>;
  searchId: string;
  dataExcludeColumns: string[];
  parallelTrials: number;
  slurmArray: TSlurmArrayMember | null;
}

type Step = StepSpec<TrialStep, TrialContext>;
const out = (c: TrialContext, s: TrialStep) => stepOutputRef(c, s);

// The tabular builders read only what both contexts hold (settings, snapshot, split and
// train outputs), so a trial context is passed to them as a tabular one.
const asTabular = (c: TrialContext): TabularContext => ({ ...c, outputs: { split: c.outputs.split, features_train: c.outputs.features_train, train: c.outputs.train } });
/** The context of the steps every trial shares: the search's own left-out columns, not this trial's. */
const sharedRows = (c: TrialContext): TabularContext => {
  const t = asTabular(c);
  return { ...t, settings: { ...t.settings, excludeColumns: c.dataExcludeColumns } };
};
/**
 * What a trial's training may take: what is left of its booking now, less the time its
 * validation predict and score need (a fifth of the booking, 10 s at least). The worker
 * stops it there, so a trial never runs past its booking by more than its scoring.
 */
export const trialTrainingDeadline = (c: TrialContext) => Math.max(20, Math.floor(c.remainingSeconds - Math.max(10, 0.2 * c.settings.maxMinutes * 60)));
const preparing = (c: TrialContext) => preparingDeadlineSeconds(c.remainingSeconds);
const evaluating = (c: TrialContext) => evaluationDeadlineSeconds(c.datasetBytes);

/** The trusted evaluator's input for one validation score (same class order as training, as on test). */
function validationScore(c: TrialContext, predictions: TrialStep): InputOf<"evaluation", "score"> {
  return {
    predictions: out(c, predictions),
    labels: out(c, "features_validation"),
    task: c.settings.task,
    metric: c.settings.metric,
    positiveClass: c.trainedPositiveClass ?? c.settings.positiveClass,
    ...(c.classLabels ? { classes: c.classLabels } : {}),
    partition: "validation",
    contract: { snapshotSha256: c.snapshotSha256, splitSha256: stepOutput(c, "split"), exportSha256: null },
  };
}

const STEPS: readonly Step[] = [
  {
    name: "split",
    label: "Splitting the data",
    phase: "preparing_data",
    recipe: "data",
    job: "split",
    needs: [],
    sharedOpId: (c) => splitOpId(asTabular(c)),
    input: (c) => splitInput(asTabular(c)),
    deadlineSeconds: preparing,
    cpus: () => 1,
  },
  {
    name: "features_train",
    label: "Preparing training rows",
    phase: "preparing_data",
    recipe: "data",
    job: "features",
    needs: ["split"],
    // Every trial of a search reads the same rows: prepared once per search.
    sharedOpId: (c) => `search:${c.searchId}:features_train`,
    input: (c) => features("train")(sharedRows(c)),
    deadlineSeconds: preparing,
    cpus: () => 1,
  },
  {
    name: "features_validation",
    label: "Preparing validation rows",
    phase: "preparing_data",
    recipe: "data",
    job: "features",
    needs: ["split"],
    sharedOpId: (c) => `search:${c.searchId}:features_validation`,
    input: (c) => features("validation")(sharedRows(c)),
    deadlineSeconds: preparing,
    cpus: () => 1,
  },
  {
    name: "train",
    label: "Training the trial's model",
    phase: "training",
    recipe: "tabular",
    job: "train",
    needs: ["split", "features_train", "features_validation"],
    input: (c) => ({ ...trainInput(asTabular(c)), timeLimitSeconds: Math.max(15, trialTrainingDeadline(c) - 5) }),
    // Held to the trial's booking, not the chain's usual reserve: the search's budget is the sum of its bookings.
    deadlineSeconds: trialTrainingDeadline,
    // An even share of the computer: trials run at once each start at once, none waits for another's CPUs.
    cpus: (c) => Math.max(1, Math.floor(c.cpus / c.parallelTrials)),
    slurmArray: (c) => c.slurmArray,
  },
  {
    name: "predict_validation",
    label: "Predicting the validation rows",
    phase: "evaluating",
    recipe: "tabular",
    job: "predict",
    needs: ["train", "features_validation"],
    input: (c) => ({ model: out(c, "train"), features: out(c, "features_validation") }),
    deadlineSeconds: evaluating,
    cpus: () => 1,
  },
  {
    name: "baseline_validation",
    label: "Predicting validation with the baseline",
    phase: "evaluating",
    recipe: "evaluation",
    job: "baseline",
    needs: ["features_train", "features_validation"],
    // One baseline per search: every trial trains on the same split.
    sharedOpId: (c) => `search:${c.searchId}:baseline_validation`,
    input: (c) => ({ labels: out(c, "features_train"), features: out(c, "features_validation"), task: c.settings.task }),
    deadlineSeconds: evaluating,
    cpus: () => 1,
  },
  {
    name: "score_validation",
    label: "Scoring the trial on validation",
    phase: "evaluating",
    recipe: "evaluation",
    job: "score",
    needs: ["predict_validation", "features_validation", "train"],
    input: (c) => validationScore(c, "predict_validation"),
    deadlineSeconds: evaluating,
    cpus: () => 1,
  },
  {
    name: "score_baseline_validation",
    label: "Scoring the baseline on validation",
    phase: "evaluating",
    recipe: "evaluation",
    job: "score",
    needs: ["baseline_validation", "features_validation", "train"],
    sharedOpId: (c) => `search:${c.searchId}:score_baseline_validation`,
    input: (c) => validationScore(c, "baseline_validation"),
    deadlineSeconds: evaluating,
    cpus: () => 1,
  },
];

/** What a finished trial shows: its validation receipt beside the baseline's, and what it trained. */
export interface TrialResults {
  validation: Receipt;
  baselineValidation: Receipt;
  bestModel: string;
  trainingSeconds: number;
  /** A trial exports nothing: only the search's final experiment does. */
  export?: undefined;
}

async function learn(db: Db, c: TrialContext, jobs: Map<TrialStep, StepJob>): Promise<void> {
  await pinSplit(db, c.experimentId, jobs.get("split"));
  const trainJob = jobs.get("train");
  if (!trainJob || !c.outputs.train) return;
  const training = await readOutput(db, trainJob, "training.json", ZTraining);
  c.classLabels = training.classLabels;
  c.trainedPositiveClass = training.positiveClass;
  c.trainingSeconds = training.wallSeconds;
}

async function collect(db: Db, _exp: { id: string; name: string }, jobs: Map<TrialStep, StepJob>): Promise<TrialResults> {
  const job = (s: TrialStep) => {
    const j = jobs.get(s);
    if (!j) throw new Error(`step ${s} has no job`);
    return j;
  };
  const [validation, baselineValidation, training] = await Promise.all([
    readOutput(db, job("score_validation"), "receipt.json", ZReceipt),
    readOutput(db, job("score_baseline_validation"), "receipt.json", ZReceipt),
    readOutput(db, job("train"), "training.json", ZTraining),
  ]);
  return { validation, baselineValidation, bestModel: training.bestModel, trainingSeconds: training.wallSeconds };
}

export const ZTrialResults = z.object({ validation: ZReceipt, baselineValidation: ZReceipt, bestModel: z.string(), trainingSeconds: z.number() });

export const TRIAL: Pipeline<TrialStep, TrialContext, TrialResults> = {
  steps: STEPS,
  budgetedStep: "train",
  dataset: "table",
  context: (base: ChainBase<TrialStep>, settingsJson: string): TrialContext => {
    const s = ZTrialSettings.parse(JSON.parse(settingsJson));
    const tab = tabularContext({ ...base, outputs: {} }, JSON.stringify(s.experiment));
    return { ...tab, outputs: base.outputs, searchId: s.searchId, dataExcludeColumns: s.dataExcludeColumns, parallelTrials: s.parallelTrials, slurmArray: s.slurmArray };
  },
  learn,
  collect,
};
