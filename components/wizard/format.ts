/** Small display helpers for the wizard (pure). */
export { formatBytes } from "@/components/ui/format-bytes";

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
