import { describe, expect, it } from "vitest";
import { ZClassificationReceipt, ZRegressionReceipt, type ClassificationReceipt, type MetricName, type RegressionReceipt } from "@/contracts/recipes";
import { baselineClass, plainNumber, verdict } from "./verdict";

const hex = (c: string) => c.repeat(64);
const direction = (metric: MetricName) => (["log_loss", "rmse", "mae"].includes(metric) ? "lower_is_better" : "higher_is_better");
// The parts of a receipt the verdict does not read, as score.py writes them.
const sealed = (metric: MetricName, value: number) => ({
  receiptVersion: 1 as const,
  primaryMetric: metric,
  primaryValue: value,
  metrics: { [metric]: value },
  positiveClass: null,
  direction: direction(metric),
  notes: {},
  evaluator: { recipe: "evaluation", recipeVersion: "1.0.0", codeSha256: hex("e"), files: {}, version: `evaluation@1.0.0+sha256:${hex("e")}` },
  hashes: { exportSha256: hex("1"), snapshotSha256: hex("2"), splitSha256: hex("3"), predictionsSha256: hex("4"), labelsSha256: hex("5") },
  evaluationContract: { primaryMetric: metric, direction: direction(metric), splitSha256: hex("3"), evaluatorVersion: "evaluation@1.0.0", snapshotSha256: hex("2"), partition: "test" as const },
  contractSha256: hex("c"),
});
/** A classification receipt (checked against the contract, so the fixtures stay real receipts). */
const cls = (metric: MetricName, value: number, extra: Partial<ClassificationReceipt> = {}): ClassificationReceipt =>
  ZClassificationReceipt.parse({
    ...sealed(metric, value),
    task: "multiclass",
    rows: 69,
    classes: ["Adelie", "Chinstrap", "Gentoo"],
    confusionMatrix: { labels: [], matrix: [] },
    perClass: {},
    residuals: null,
    worstExamples: [],
    ...extra,
  });
// The penguins baseline: every test row predicted Adelie (rows actual, columns predicted).
const adelieBaseline = (metric: MetricName, value: number) =>
  cls(metric, value, { confusionMatrix: { labels: ["Adelie", "Chinstrap", "Gentoo"], matrix: [[31, 0, 0], [14, 0, 0], [24, 0, 0]] } });
const reg = (metric: MetricName, value: number, mean?: number): RegressionReceipt =>
  ZRegressionReceipt.parse({
    ...sealed(metric, value),
    task: "regression",
    rows: 100,
    confusionMatrix: null,
    perClass: null,
    residuals: {
      definition: "predicted - actual",
      mean: 0,
      std: 1,
      quantiles: {},
      sample: mean === undefined ? [] : [{ rowId: 1, actual: 3, predicted: mean }],
    },
    worstExamples: [],
  });
const better = { comparable: true, better: true, reason: "x" };

describe("the verdict in words", () => {
  it("says accuracy as how often the model is right, next to always guessing the majority class", () => {
    const v = verdict({ target: "species", candidate: cls("accuracy", 0.9565), baseline: adelieBaseline("accuracy", 0.449), comparison: better });
    expect(v.headline).toBe("Predicts species correctly 96 % of the time; always guessing Adelie gets 45 %.");
    expect(v.judgement).toBe("Better than the baseline on the same 69 test rows.");
  });

  it("finds the baseline's class from its confusion matrix, else from its predictions", () => {
    expect(baselineClass(adelieBaseline("accuracy", 0.45))).toBe("Adelie");
    expect(baselineClass(cls("accuracy", 0.5, { worstExamples: [{ rowId: 1, actual: "b", predicted: "a", confidence: 0.6 }] }))).toBe("a");
    expect(baselineClass(cls("accuracy", 0.5))).toBeNull();
  });

  it("has its own honest sentence for balanced accuracy, F1, ROC AUC and log loss", () => {
    const b = adelieBaseline("balanced_accuracy", 0.3333);
    expect(verdict({ target: "species", candidate: cls("balanced_accuracy", 0.94), baseline: b, comparison: better }).headline).toMatch(/^Averaged over the classes, finds the right species 94 % of the time .*always guessing Adelie gets 33 %\.$/);
    const f1 = verdict({ target: "income", candidate: cls("f1", 0.71, { task: "binary", positiveClass: ">50K" }), baseline: cls("f1", 0, { task: "binary" }), comparison: better });
    expect(f1.headline).toMatch(/^F1 for income \(>50K\) is 0\.71 on a 0–1 scale/);
    expect(f1.headline).toMatch(/gets 0\.00\.$/);
    const auc = verdict({ target: "income", candidate: cls("roc_auc", 0.9, { task: "binary", positiveClass: ">50K" }), baseline: cls("roc_auc", 0.5, { task: "binary" }), comparison: better });
    expect(auc.headline).toBe("Ranks a random >50K row above a random other row 90 % of the time (ROC AUC 0.90); a guess that ranks at random gets 50 %, and the baseline gets 50 %.");
    expect(auc.headline).not.toMatch(/correct/);
    expect(verdict({ target: "species", candidate: cls("log_loss", 0.12), baseline: adelieBaseline("log_loss", 1.05), comparison: better }).headline).toMatch(/^Log loss 0\.12 .*lower is better.*gets 1\.05\.$/);
  });

  it("says regression errors in the target's own units, against always predicting the training mean", () => {
    expect(verdict({ target: "price", candidate: reg("rmse", 612.4), baseline: reg("rmse", 3981.2, 3932.8), comparison: better }).headline).toBe(
      "Predicts price within about 612 on a typical row (RMSE: large misses count extra); always predicting the training average (3,933) is off by 3,981.",
    );
    expect(verdict({ target: "price", candidate: reg("mae", 301), baseline: reg("mae", 3000, 3932.8), comparison: better }).headline).toMatch(/^Predicts price off by 301 on average \(MAE\)/);
    expect(verdict({ target: "price", candidate: reg("r2", 0.974), baseline: reg("r2", -0.0001, 3932.8), comparison: better }).headline).toBe(
      "Explains 97 % of the variation in price (R² 0.97); always predicting the training average (3,933) explains 0 % (R² -0.00).",
    );
  });

  it("does not claim better when the model is not, or when the scores cannot be compared", () => {
    const same = verdict({ target: "species", candidate: cls("accuracy", 0.45), baseline: adelieBaseline("accuracy", 0.45), comparison: { comparable: true, better: false, reason: "accuracy 0.4500 is not better than the baseline's 0.4500" } });
    expect(same.judgement).toMatch(/^Not better than the baseline/);
    expect(same.better).toBe(false);
    const no = verdict({ target: "species", candidate: cls("accuracy", 0.9), baseline: adelieBaseline("accuracy", 0.45), comparison: { comparable: false, better: null, reason: "evaluation contracts differ in: splitSha256" } });
    expect(no.judgement).toMatch(/cannot be compared \(evaluation contracts differ in: splitSha256\)/);
    expect(no.better).toBeNull();
  });

  it("rounds numbers for people", () => {
    expect(plainNumber(3932.81)).toBe("3,933");
    expect(plainNumber(0.123456)).toBe("0.123");
    expect(plainNumber(0)).toBe("0");
  });
});
