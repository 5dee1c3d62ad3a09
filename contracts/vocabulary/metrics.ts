/**
 * The metrics the evaluator computes (training/evaluation/metrics.py), which tasks each
 * fits and which way is better. The direction here is the evaluator's: a receipt carries
 * the same word, and a comparison reads it from the receipt, not from this table.
 */
import { z } from "zod";
import type { Task } from "./tasks";

export const CLASSIFICATION_METRICS = ["accuracy", "balanced_accuracy", "f1", "roc_auc", "log_loss"] as const;
export const REGRESSION_METRICS = ["rmse", "mae", "r2"] as const;
export const METRICS = [...CLASSIFICATION_METRICS, ...REGRESSION_METRICS] as const;
export const ZMetric = z.enum(METRICS);
export type Metric = z.infer<typeof ZMetric>;

export const DIRECTIONS = ["higher_is_better", "lower_is_better"] as const;
export const ZDirection = z.enum(DIRECTIONS);
export type Direction = z.infer<typeof ZDirection>;

export interface MetricInfo {
  label: string;
  direction: Direction;
}

export const METRIC_INFO: Record<Metric, MetricInfo> = {
  accuracy: { label: "Accuracy", direction: "higher_is_better" },
  balanced_accuracy: { label: "Balanced accuracy", direction: "higher_is_better" },
  f1: { label: "F1", direction: "higher_is_better" },
  roc_auc: { label: "ROC AUC", direction: "higher_is_better" },
  log_loss: { label: "Log loss", direction: "lower_is_better" },
  rmse: { label: "RMSE", direction: "lower_is_better" },
  mae: { label: "MAE", direction: "lower_is_better" },
  r2: { label: "R²", direction: "higher_is_better" },
};

/** The metrics a task may be scored on; no task yet means classification (the wizard's default). */
export function metricsFor(task: Task | string | null | undefined): readonly Metric[] {
  return task === "regression" ? REGRESSION_METRICS : CLASSIFICATION_METRICS;
}

export function metricFits(task: Task, metric: Metric): boolean {
  return metricsFor(task).includes(metric);
}

const isMetric = (m: string): m is Metric => (METRICS as readonly string[]).includes(m);

/** A metric's display name; an unknown name is shown as it is. */
export function metricLabel(metric: string): string {
  return isMetric(metric) ? METRIC_INFO[metric].label : metric;
}

export function directionWords(direction: Direction | string | undefined): string {
  return direction === "lower_is_better" ? "lower is better" : "higher is better";
}
