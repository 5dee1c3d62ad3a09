/** Small display helpers for the wizard (pure). */
export function formatBytes(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return "—";
  const units = ["bytes", "KiB", "MiB", "GiB", "TiB"];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return i === 0 ? `${n} bytes` : `${v.toFixed(v >= 10 ? 0 : 1)} ${units[i]}`;
}

export const METRIC_LABELS: Record<string, string> = {
  accuracy: "Accuracy",
  balanced_accuracy: "Balanced accuracy",
  f1: "F1",
  roc_auc: "ROC AUC",
  log_loss: "Log loss",
  rmse: "RMSE",
  mae: "MAE",
  r2: "R²",
};
export const TASK_LABELS: Record<string, string> = { binary: "Binary classification", multiclass: "Multiclass classification", regression: "Regression" };
export const CLASSIFICATION_METRICS = ["accuracy", "balanced_accuracy", "f1", "roc_auc", "log_loss"];
export const REGRESSION_METRICS = ["rmse", "mae", "r2"];
export const metricsFor = (task: string | null) => (task === "regression" ? REGRESSION_METRICS : CLASSIFICATION_METRICS);
