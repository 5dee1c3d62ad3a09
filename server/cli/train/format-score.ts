/**
 * Scores for people in the CLI's text output: accuracies as percentages with one
 * decimal (0.9612 → "96.1 %"), other bounded scores with three decimals (0.9612 →
 * "0.961"), errors in the target's unit with three significant digits (1234.567 →
 * "1,235", 0.012345 → "0.0123"). --json keeps the full numbers.
 */
const PERCENT = new Set(["accuracy", "balanced_accuracy"]);
const DECIMALS = new Set(["f1", "roc_auc", "log_loss", "r2"]);

export function formatScore(metric: string, value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "-";
  if (PERCENT.has(metric)) return `${(value * 100).toFixed(1)} %`;
  if (DECIMALS.has(metric)) return value.toFixed(3);
  const abs = Math.abs(value);
  if (abs >= 1000) return Math.round(value).toLocaleString("en-US");
  if (abs === 0) return "0";
  return String(Number(value.toPrecision(3)));
}

/** "accuracy 96.1 % (baseline 44.2 %)" */
export function formatComparison(metric: string, candidate: number | null, baseline: number | null): string {
  return `${metric} ${formatScore(metric, candidate)} (baseline ${formatScore(metric, baseline)})`;
}
