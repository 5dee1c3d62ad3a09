/**
 * The verdict in words: what the candidate's score on the primary metric means for the
 * column being predicted, next to what the baseline (always the training majority class,
 * or always the training mean) gets on the same test rows. Each metric has its own
 * honest sentence: accuracy is "right N % of the time", RMSE is "off by N on a typical
 * row", ROC AUC is a ranking, not a rate of correct answers. Pure; unit-tested.
 */
import type { Receipt } from "@/contracts/recipes";

export interface VerdictInput {
  target: string;
  candidate: Receipt;
  baseline: Receipt;
  comparison: { comparable: boolean; better: boolean | null; reason: string };
}

export interface Verdict {
  /** "Predicts species correctly 96 % of the time; always guessing Adelie gets 45 %." */
  headline: string;
  /** Better / not better / not comparable, with the reason. */
  judgement: string;
  better: boolean | null;
}

const pct = (v: number) => `${Math.round(v * 100)} %`;

/** A number for people: 3 significant digits, thousands separated. */
export function plainNumber(v: number): string {
  const a = Math.abs(v);
  if (a >= 1000) return Math.round(v).toLocaleString("en-US");
  if (a === 0) return "0";
  return Number(v.toPrecision(3)).toLocaleString("en-US", { maximumFractionDigits: 6 });
}

/** The class the baseline always predicts: the one column of its confusion matrix that has counts. */
export function baselineClass(baseline: Receipt): string | null {
  const cm = baseline.confusionMatrix;
  if (cm?.labels.length) {
    const sums = cm.labels.map((_, j) => cm.matrix.reduce((a, row) => a + (row[j] ?? 0), 0));
    const used = sums.map((s, j) => (s > 0 ? j : -1)).filter((j) => j >= 0);
    if (used.length === 1) return cm.labels[used[0]!] ?? null;
  }
  const w = baseline.worstExamples?.[0]?.predicted;
  return w === undefined || w === null ? null : String(w);
}

/** The value the regression baseline always predicts (the training mean). */
export function baselineMean(baseline: Receipt): number | null {
  const p = baseline.residuals?.sample?.[0]?.predicted;
  return typeof p === "number" && Number.isFinite(p) ? p : null;
}

function headlineFor(target: string, c: Receipt, b: Receipt): string {
  const cv = c.primaryValue;
  const bv = b.primaryValue;
  if (cv === null || cv === undefined) return `No ${c.primaryMetric} could be computed for the model on the test rows.`;
  const cls = baselineClass(b);
  const guess = cls ? `always guessing ${cls}` : "always guessing the most common class";
  const mean = baselineMean(b);
  const meanWords = mean !== null ? `always predicting the training average (${plainNumber(mean)})` : "always predicting the training average";
  const has = bv !== null && bv !== undefined;
  const positive = c.positiveClass ? ` (${c.positiveClass})` : "";
  switch (c.primaryMetric) {
    case "accuracy":
      return `Predicts ${target} correctly ${pct(cv)} of the time; ${guess} gets ${has ? pct(bv) : "no score"}.`;
    case "balanced_accuracy":
      return `Averaged over the classes, finds the right ${target} ${pct(cv)} of the time (balanced accuracy, so rare classes count as much as common ones); ${guess} gets ${has ? pct(bv) : "no score"}.`;
    case "f1":
      return c.task === "binary"
        ? `F1 for ${target}${positive} is ${cv.toFixed(2)} on a 0–1 scale: it is high only when the model both finds most${positive ? ` ${c.positiveClass}` : ""} rows and is usually right when it says so; ${guess} gets ${has ? bv.toFixed(2) : "no score"}.`
        : `F1 averaged over the ${target} classes is ${cv.toFixed(2)} on a 0–1 scale (high only when each class is both found and predicted precisely); ${guess} gets ${has ? bv.toFixed(2) : "no score"}.`;
    case "roc_auc":
      return c.task === "binary"
        ? `Ranks a random${positive ? ` ${c.positiveClass}` : " positive"} row above a random other row ${pct(cv)} of the time (ROC AUC ${cv.toFixed(2)}); a guess that ranks at random gets 50 %${has ? `, and the baseline gets ${pct(bv)}` : ""}.`
        : `Tells each ${target} class apart from the others ${pct(cv)} of the time on average (ROC AUC ${cv.toFixed(2)}, one class against the rest); a random ranking gets 50 %${has ? `, and the baseline gets ${pct(bv)}` : ""}.`;
    case "log_loss":
      return `Log loss ${plainNumber(cv)} (how confident the model is in the right ${target}; lower is better, 0 is perfect); ${guess} with its training frequencies gets ${has ? plainNumber(bv) : "no score"}.`;
    case "rmse":
      return `Predicts ${target} within about ${plainNumber(cv)} on a typical row (RMSE: large misses count extra); ${meanWords} is off by ${has ? plainNumber(bv) : "an unknown amount"}.`;
    case "mae":
      return `Predicts ${target} off by ${plainNumber(cv)} on average (MAE); ${meanWords} is off by ${has ? plainNumber(bv) : "an unknown amount"} on average.`;
    case "r2":
      return `Explains ${pct(Math.max(cv, 0))} of the variation in ${target} (R² ${cv.toFixed(2)}${cv < 0 ? ": worse than the average" : ""}); ${meanWords} explains ${has ? `${pct(Math.max(bv, 0))} (R² ${bv.toFixed(2)})` : "none"}.`;
    default:
      return `${c.primaryMetric} ${plainNumber(cv)} (${c.direction === "lower_is_better" ? "lower" : "higher"} is better); the baseline gets ${has ? plainNumber(bv) : "no score"}.`;
  }
}

export function verdict({ target, candidate, baseline, comparison }: VerdictInput): Verdict {
  const judgement = !comparison.comparable
    ? `These two scores cannot be compared (${comparison.reason}), so no claim is made that the model is better.`
    : comparison.better
      ? `Better than the baseline on the same ${candidate.rows ? `${candidate.rows} ` : ""}test rows.`
      : `Not better than the baseline (${comparison.reason}): this model adds nothing over always guessing.`;
  return { headline: headlineFor(target, candidate, baseline), judgement, better: comparison.comparable ? comparison.better : null };
}
