/**
 * What an agent sees of the API's views: each mapper names the fields it passes on (an
 * allow-list) and the result is parsed with its strict shape from tool-shapes.ts. The
 * API's experiment views carry the test-partition receipts (candidate, baseline,
 * comparison, the worst test rows); nothing here reads them. Pure functions, so the
 * leaks they prevent are tested without a server.
 */
import type { inferRouterOutputs } from "@trpc/server";
import { METRIC_INFO, ZMetric } from "@/contracts/vocabulary/metrics";
import type { AppRouter } from "@/server/api/root";
import {
  ZChecksSummary,
  ZDatasetDescription,
  ZExperimentDetail,
  ZExperimentSummary,
  type ChecksSummary,
  type ColumnStats,
  type DatasetDescription,
  type ExperimentDetail,
  type ExperimentSummary,
  type Validation,
} from "./tool-shapes";

type Out = inferRouterOutputs<AppRouter>;
export type ExperimentListItem = Out["experiments"]["list"][number];
export type ExperimentDetailView = Out["experiments"]["get"];
export type FineTuneView = Out["finetune"]["get"];
export type DatasetDetail = Out["datasets"]["get"];
export type ChecksView = NonNullable<Out["datasets"]["checks"]>;

type Results = NonNullable<ExperimentDetailView["results"]>;
type LeaderboardModel = NonNullable<Results["leaderboard"]>["models"][number];
type FeatureImportance = NonNullable<Results["featureImportance"]>["features"][number];

/** The fields of a list row the mappers read (an answer with more is read the same way). */
export type ListFacts = Pick<ExperimentListItem, "id" | "name" | "kind" | "status" | "phase" | "note" | "task" | "metric" | "target" | "mode" | "createdAt" | "endedAt" | "seconds">;

/** The fields of experiments.get the tabular mapper reads: the validation side of the results only. */
export interface TabularFacts extends ListFacts {
  datasetId: string;
  settings: ExperimentDetailView["settings"];
  budgetSeconds: number;
  steps: Pick<ExperimentDetailView["steps"][number], "step" | "label" | "jobId" | "shownState">[];
  results: {
    training: Pick<NonNullable<Results["training"]>, "metric" | "bestModel" | "validationScore" | "trainRows" | "validationRows"> | null;
    leaderboard: { models: Pick<LeaderboardModel, "model" | "validationScore" | "fitSeconds" | "stackLevel">[] } | null;
    featureImportance: { features: Pick<FeatureImportance, "name" | "importance" | "stddev">[] } | null;
  } | null;
}

/**
 * A value seen fewer times than this is not shown: a value that occurs once or twice
 * points at single rows, and describe_inputs gives aggregates, never rows.
 */
export const MIN_VALUE_COUNT = 5;
/** Columns whose values identify rows or are free text: their common values are never shown. */
const NO_VALUES_TYPES = new Set(["id_like", "text"]);

export function experimentSummary(e: ListFacts): ExperimentSummary {
  return ZExperimentSummary.parse({
    id: e.id,
    name: e.name,
    kind: e.kind,
    status: e.status,
    phase: e.phase,
    note: e.note,
    task: e.task,
    metric: e.metric,
    target: e.target,
    mode: e.mode,
    createdAt: e.createdAt,
    endedAt: e.endedAt,
    seconds: e.seconds,
  });
}

/** Which way is better for a metric; a name outside the evaluator's table is read as higher-is-better, as the pages do. */
export const metricDirection = (metric: string) => {
  const m = ZMetric.safeParse(metric);
  return m.success ? METRIC_INFO[m.data].direction : "higher_is_better";
};

/** The validation-partition facts of a tabular experiment's results; null before training succeeded. */
export function validationOf(results: TabularFacts["results"]): Validation | null {
  const training = results?.training;
  if (!results || !training) return null;
  return {
    partition: "validation",
    metric: training.metric,
    direction: metricDirection(training.metric),
    bestModel: training.bestModel,
    validationScore: training.validationScore,
    trainRows: training.trainRows,
    validationRows: training.validationRows,
    models: (results.leaderboard?.models ?? []).map((m) => ({ model: m.model, validationScore: m.validationScore, fitSeconds: m.fitSeconds, stackLevel: m.stackLevel })),
    featureImportance: results.featureImportance?.features.map((f) => ({ name: f.name, importance: f.importance, stddev: f.stddev })) ?? null,
  };
}

export function tabularDetail(e: TabularFacts): ExperimentDetail {
  const s = e.settings;
  const validation = validationOf(e.results);
  return ZExperimentDetail.parse({
    ...experimentSummary(e),
    datasetId: e.datasetId,
    settings: {
      target: s.target,
      task: s.task,
      metric: s.metric,
      positiveClass: s.positiveClass,
      excludeColumns: s.excludeColumns,
      split: s.split,
      mode: s.mode,
      maxMinutes: s.maxMinutes,
      seed: s.seed,
    },
    budgetSeconds: e.budgetSeconds,
    steps: e.steps.map((st) => ({ step: st.step, label: st.label, jobId: st.jobId, state: st.shownState })),
    validation,
    validationNote: validation ? null : "No validation results yet: training has not succeeded.",
  });
}

export function fineTuneDetail(summary: ListFacts, v: Pick<FineTuneView, "experiment" | "steps">): ExperimentDetail {
  return ZExperimentDetail.parse({
    ...experimentSummary(summary),
    datasetId: v.experiment.datasetId,
    settings: null,
    budgetSeconds: null,
    steps: v.steps.map((st) => ({ step: st.step, label: st.label, jobId: st.jobId, state: st.state })),
    validation: null,
    // The LoRA recipe's evaluation loss is computed on the same held-out examples the
    // trusted evaluator scores at the end, so it is a test score here and is withheld.
    validationNote: "A fine-tune has no validation partition apart from the held-out examples its final score uses; agents get no held-out score.",
  });
}

type ProfileColumn = NonNullable<DatasetDetail["profile"]>["columns"][number];

export function columnStats(c: ProfileColumn): ColumnStats {
  return {
    name: c.name,
    type: c.type,
    dtype: c.dtype,
    missing: c.missing,
    distinct: c.distinct,
    min: c.min ?? null,
    max: c.max ?? null,
    mean: c.mean ?? null,
    std: c.std ?? null,
    commonValues: NO_VALUES_TYPES.has(c.type) ? [] : (c.topValues ?? []).filter((v) => v.count >= MIN_VALUE_COUNT).map((v) => ({ value: v.value, count: v.count })),
  };
}

export function checksSummary(c: ChecksView): ChecksSummary {
  const r = c.result;
  return ZChecksSummary.parse({
    target: c.target,
    status: c.status,
    task: r?.task ?? null,
    metric: r?.metric ?? null,
    metricDirection: r?.metricDirection ?? null,
    labelledRows: r?.labelledRows ?? null,
    classCounts: r?.classCounts ?? null,
    issues: (r?.issues ?? []).map((i) => ({ code: i.code, severity: i.severity, columns: i.columns, message: i.message, recommendedAction: i.recommendedAction.kind })),
  });
}

export function datasetDescription(d: DatasetDetail, checks: ChecksView | null): DatasetDescription {
  return ZDatasetDescription.parse({
    id: d.id,
    name: d.name,
    kind: d.kind,
    status: d.status,
    bytes: d.bytes,
    rowCount: d.rowCount,
    columnCount: d.columnCount,
    duplicateRows: d.profile?.duplicateRows ?? null,
    createdAt: d.createdAt,
    columns: (d.profile?.columns ?? []).map(columnStats),
    checks: checks ? checksSummary(checks) : null,
  });
}
