/** What the pages, the CLI and agents see of an experiment. */
import { ZSplitContract } from "@/contracts/recipes";
import { parseStoredJson } from "@/server/db/stored-json";
import type { Db } from "@/server/db/client";
import { isActive } from "@/server/jobs/job-state";
import { firstWaiting } from "@/server/jobs/waiting-words";
import { ZExperimentSettings, type TExperimentSettings } from "./experiments.schema";
import { ZFineTuneSettings } from "./pipelines/lora-settings";
import { baseModelName } from "./pipelines/lora";
import { parseFineTuneResults } from "./pipelines/lora-results";
import { stepJobs } from "./chain-jobs";
import { ZPlacement, type TPlacement } from "./placement";
import type { Phase } from "./pipeline";
import { TABULAR, tabularLookupContext, type TabularStep as StepName } from "./pipelines/tabular";
import { experimentsRepository, type ExperimentRow } from "./experiments.repository";
import { storedProfile } from "@/server/datasets/datasets.views";
import { parseStoredResults, type ExperimentResults } from "./chain-results";
import { mistakeRows, type MistakeRows } from "./mistake-rows";
import { explainFailure, recipeError, type FailureView } from "./failure-words";
import { failedStepCode, runError, type FailedStep, type RunError } from "./run-error";
import {
  experimentOutcome,
  phaseViews,
  shownStepState,
  stepStateWords,
  trainingOutcome,
  type OutcomeView,
  type PhaseView,
  type StepFacts,
  type TrainingOutcome,
} from "./outcome-view";

export interface ExperimentListView {
  id: string;
  projectId: string;
  /** Which pipeline it runs; a "finetune" row's details come from finetune.get. */
  kind: "tabular" | "finetune";
  name: string;
  status: string;
  phase: string;
  note: string | null;
  task: string;
  metric: string;
  target: string;
  mode: string;
  candidate: number | null;
  baseline: number | null;
  betterThanBaseline: boolean | null;
  comparable: boolean | null;
  exportSha256: string | null;
  exportBytes: number | null;
  targetId: string;
  /** How its computer was chosen, when it was started on "any" computer. */
  placement: TPlacement | null;
  createdAt: string;
  endedAt: string | null;
  seconds: number;
}

export interface StepView {
  step: StepName;
  phase: Phase;
  jobId: string | null;
  state: string | null;
  reason: string | null;
  detail: string | null;
  unreachableSince: string | null;
  cancelRequested: boolean;
  usage: unknown;
  /** What the step does, in words ("Training models"). */
  label: string;
  /** The state to show: a step the cancel stopped early is "cancelled" even if it exited 0. */
  shownState: string | null;
  /** That state in plain words ("waiting for a free slot"). */
  stateWords: string;
  /** For a failed or timed-out step: the summary, the next action, the technical facts. */
  failure: FailureView | null;
}

export interface ExperimentDetailView extends ExperimentListView {
  opId: string;
  datasetId: string;
  snapshotSha256: string;
  settings: TExperimentSettings;
  budgetSeconds: number;
  cancelRequested: boolean;
  progress: { done: number; total: number; currentStep: string | null };
  /** While a step waits its turn on the computer: for what, and which job holds it ("Waiting for CPUs: the fine-tune “…” is using them (…)."). */
  waiting: string | null;
  steps: StepView[];
  results: ExperimentResults | null;
  badges: { trainingFinished: boolean; evaluationPassed: boolean; betterThanBaseline: boolean | null; comparable: boolean | null };
  /** Each phase's state from its steps (never green when a step in it failed or was cancelled). */
  phases: PhaseView[];
  /** How training ended: "finished" only when a model was made and kept. */
  training: TrainingOutcome;
  /** For a run that did not succeed: what happened and what to do next. */
  outcome: OutcomeView | null;
  /** The same for scripts and the CLI: code, message, fix and the step that failed (run-error.ts). */
  error: RunError | null;
  /** The values of the rows in the receipt's worstExamples (the receipt names them by row id only). */
  mistakeRows: MistakeRows | null;
  transitions: { from: string; to: string; reason: string | null; at: string }[];
  /** Rows its split kept out for the project's reserved holdouts; null before the split, or when none was pinned. */
  heldOut: { holdouts: number; rows: number } | null;
}

/** What the experiment's split kept out for reserved holdouts (its split.json), once split. */
async function heldOutOf(db: Db, e: ExperimentRow): Promise<ExperimentDetailView["heldOut"]> {
  if (!e.splitContractId || e.holdouts === "[]") return null;
  const row = await db.splitContract.findUnique({ where: { id: e.splitContractId }, select: { contract: true } });
  const contract = parseStoredJson(ZSplitContract, row?.contract ?? null);
  return contract?.holdouts ? { holdouts: contract.holdouts.length, rows: contract.excludedReasons.holdout ?? 0 } : null;
}

const parseResults = parseStoredResults;

/** What a row shows of its model and score, by kind: a fine-tuned adapter is scored against its base model. */
function scoreFields(e: ExperimentRow): Pick<ExperimentListView, "kind" | "task" | "metric" | "target" | "mode" | "candidate" | "baseline" | "betterThanBaseline" | "comparable"> {
  if (e.kind === "finetune") {
    const receipt = parseFineTuneResults(e.results)?.receipt;
    return {
      kind: "finetune",
      task: "fine-tune",
      metric: "mean_nll_per_answer_token",
      target: baseModelName(ZFineTuneSettings.parse(JSON.parse(e.settings)).base),
      mode: "lora",
      candidate: receipt?.adapter.meanNll ?? null,
      baseline: receipt?.base.meanNll ?? null,
      betterThanBaseline: receipt ? receipt.betterThanBase : null,
      comparable: receipt ? true : null,
    };
  }
  const settings = ZExperimentSettings.parse(JSON.parse(e.settings));
  const results = parseResults(e.results);
  return {
    kind: "tabular",
    task: settings.task,
    metric: settings.metric,
    target: settings.target,
    mode: settings.mode,
    candidate: results?.candidate.primaryValue ?? null,
    baseline: results?.baseline.primaryValue ?? null,
    betterThanBaseline: results ? results.comparison.better : null,
    comparable: results ? results.comparison.comparable : null,
  };
}

export function toListView(e: ExperimentRow): ExperimentListView {
  const end = e.endedAt ?? new Date();
  return {
    id: e.id,
    projectId: e.projectId,
    name: e.name,
    status: e.status,
    phase: e.phase,
    // While it runs, what it is doing; once it is not running, why.
    note: e.status === "running" ? e.progressNote : e.reason,
    ...scoreFields(e),
    exportSha256: e.exportSha256,
    exportBytes: e.exportBytes === null ? null : Number(e.exportBytes),
    targetId: e.targetId,
    placement: parseStoredJson(ZPlacement, e.placement),
    createdAt: e.createdAt.toISOString(),
    endedAt: e.endedAt?.toISOString() ?? null,
    seconds: Math.round((end.getTime() - e.createdAt.getTime()) / 1000),
  };
}

export async function toDetailView(db: Db, e: ExperimentRow): Promise<ExperimentDetailView> {
  const base = toListView(e);
  const settings = ZExperimentSettings.parse(JSON.parse(e.settings));
  const results = parseResults(e.results);
  const repo = experimentsRepository(db);
  const dataset = await repo.dataset(e.datasetId);
  const profile = storedProfile(dataset?.profile ?? null);
  const jobs = await stepJobs(db, TABULAR.steps, tabularLookupContext(e, settings));
  const steps: StepView[] = TABULAR.steps.map((s) => {
    const j = jobs.get(s.name);
    const facts: StepFacts = { step: s.name, phase: s.phase, state: j?.state ?? null, reason: j?.reason ?? null, cancelRequested: Boolean(j?.cancelRequestedAt) };
    return {
      step: s.name,
      phase: s.phase,
      jobId: j?.id ?? null,
      state: facts.state,
      reason: facts.reason,
      detail: j?.detail ?? null,
      unreachableSince: j?.unreachableSince?.toISOString() ?? null,
      cancelRequested: facts.cancelRequested,
      usage: j?.usage ? JSON.parse(j.usage) : null,
      label: s.label,
      shownState: shownStepState(e.status, facts),
      stateWords: stepStateWords(e.status, facts),
      failure: j ? explainFailure({ stepLabel: s.label, state: j.state, reason: j.reason, detail: j.detail, error: recipeError(j.report) }) : null,
    };
  });
  const firstFailed = steps.find((s) => s.failure);
  const failedJob = firstFailed ? jobs.get(firstFailed.step) : undefined;
  const failed: FailedStep | null =
    firstFailed && failedJob ? { label: firstFailed.label, view: firstFailed.failure!, code: failedStepCode(failedJob, recipeError(failedJob.report)?.code) } : null;
  const done = steps.filter((s) => s.state === "succeeded").length;
  const current = steps.find((s) => s.state !== null && isActive(s.state));
  const outcome = experimentOutcome(e.status, e.reason, failed && { stepLabel: failed.label, view: failed.view }, e.budgetSeconds, current ? current.label : null);
  const train = steps.find((s) => s.step === "train");
  const transitions = await repo.transitions(e.id);
  const waiting = e.status === "running" ? await firstWaiting(db, TABULAR.steps.map((s) => jobs.get(s.name))) : null;
  const worst = results?.candidate.worstExamples ?? [];
  const mistakes = await mistakeRows(db, {
    experimentId: e.id,
    snapshotSha256: e.snapshotSha256,
    tableFormat: profile?.tableFormat ?? {},
    target: settings.target,
    excludeColumns: settings.excludeColumns,
    rowIds: worst.map((w) => w.rowId).filter((n) => Number.isInteger(n) && n >= 0),
  });
  return {
    ...base,
    opId: e.opId,
    datasetId: e.datasetId,
    snapshotSha256: e.snapshotSha256,
    settings,
    budgetSeconds: e.budgetSeconds,
    cancelRequested: Boolean(e.cancelRequestedAt),
    progress: {
      done: e.status === "succeeded" ? TABULAR.steps.length : done,
      total: TABULAR.steps.length,
      currentStep: current ? current.label : e.status === "running" ? (e.progressNote ?? "Starting the next step") : null,
    },
    waiting,
    steps,
    results,
    mistakeRows: mistakes,
    phases: phaseViews(e.status, steps),
    training: trainingOutcome(e.status, train),
    outcome,
    error: runError(e.status, outcome, failed),
    badges: {
      trainingFinished: trainingOutcome(e.status, train) === "finished",
      evaluationPassed: Boolean(results),
      betterThanBaseline: results ? results.comparison.better : null,
      comparable: results ? results.comparison.comparable : null,
    },
    transitions: transitions.map((t) => ({ from: t.from, to: t.to, reason: t.reason, at: t.at.toISOString() })),
    heldOut: await heldOutOf(db, e),
  };
}
