/**
 * The trusted `evaluation` recipe (training/evaluation): baseline predictions and the
 * scored receipt (score.py, metrics.py, evaluator.py; README.md there documents it).
 */
import { z } from "zod";
import { ZClassKey, ZClassValue, ZDirection, ZMetricName, ZSha256Hex, ZTableFormat, ZTask, ref } from "./common";

export const ZBaselineInput = z.strictObject({
  labels: ref("labels.parquet of the TRAIN partition (or the features job's output folder)"),
  features: ref("features.parquet of the partition to predict (only row_id is read), or its folder"),
  task: ZTask,
});
/** The input as a caller writes it (defaulted fields optional). */
export type BaselineJobInput = z.input<typeof ZBaselineInput>;

export const ZScoreInput = z.strictObject({
  predictions: ref("predictions.parquet (or the predicting job's output folder)"),
  labels: ref("labels.parquet of the scored partition (or its folder)"),
  task: ZTask,
  metric: ZMetricName,
  positiveClass: ZClassValue.nullable().optional(),
  classes: z.array(ZClassValue).nullable().optional(),
  /** Which partition the labels are of: a search's trials are scored on validation, a final model on test. */
  partition: z.enum(["validation", "test"]).default("test"),
  contract: z.strictObject({
    snapshotSha256: ZSha256Hex,
    splitSha256: ZSha256Hex,
    exportSha256: ZSha256Hex.nullable().optional(),
  }),
});
/** The input as a caller writes it (defaulted fields optional). */
export type ScoreJobInput = z.input<typeof ZScoreInput>;

/** What makes two receipts comparable; its canonical JSON hashes to contractSha256. */
export const ZEvaluationContract = z.strictObject({
  primaryMetric: ZMetricName,
  direction: ZDirection,
  splitSha256: ZSha256Hex,
  evaluatorVersion: z.string(),
  snapshotSha256: ZSha256Hex,
  /** Receipts of different partitions are never comparable: the contract hash covers it. */
  partition: z.enum(["validation", "test"]),
});
export type EvaluationContract = z.infer<typeof ZEvaluationContract>;

export const ZEvaluator = z.strictObject({
  recipe: z.string(),
  recipeVersion: z.string(),
  codeSha256: ZSha256Hex,
  /** SHA-256 of each code file the version covers. */
  files: z.record(z.string(), ZSha256Hex),
  version: z.string(),
});

/** Metric values by name; null where not computable (the reason is in notes). */
const ZMetricValues = z.partialRecord(ZMetricName, z.number().nullable());
const ZMetricNotes = z.partialRecord(ZMetricName, z.string());

const ZHashes = z.strictObject({
  exportSha256: ZSha256Hex.nullable(),
  snapshotSha256: ZSha256Hex,
  splitSha256: ZSha256Hex,
  predictionsSha256: ZSha256Hex,
  labelsSha256: ZSha256Hex,
});

const common = {
  receiptVersion: z.literal(1),
  primaryMetric: ZMetricName,
  direction: ZDirection,
  primaryValue: z.number(),
  rows: z.int().nonnegative(),
  metrics: ZMetricValues,
  notes: ZMetricNotes,
  evaluator: ZEvaluator,
  hashes: ZHashes,
  evaluationContract: ZEvaluationContract,
  contractSha256: ZSha256Hex,
};

export const ZConfusionMatrix = z.strictObject({
  /** Rows are actual classes, columns predicted ones, in this order. */
  labels: z.array(ZClassKey),
  matrix: z.array(z.array(z.int().nonnegative())),
});

export const ZPerClass = z.record(
  ZClassKey,
  z.strictObject({ precision: z.number(), recall: z.number(), f1: z.number(), support: z.int().nonnegative() }),
);

export const ZClassifiedExample = z.strictObject({
  rowId: z.int().nonnegative(),
  actual: ZClassKey,
  predicted: ZClassKey,
  /** The probability the model gave its (wrong) answer; null without probabilities. */
  confidence: z.number().nullable(),
});

export const ZRegressionExample = z.strictObject({
  rowId: z.int().nonnegative(),
  actual: z.number(),
  predicted: z.number(),
  confidence: z.null(),
  absoluteError: z.number(),
});

export const ZResiduals = z.strictObject({
  definition: z.literal("predicted - actual"),
  mean: z.number(),
  std: z.number(),
  /** q00, q05, q25, q50, q75, q95, q100. */
  quantiles: z.record(z.string(), z.number()),
  sample: z.array(z.strictObject({ rowId: z.int().nonnegative(), actual: z.number(), predicted: z.number() })),
});

export const ZClassificationReceipt = z.strictObject({
  ...common,
  task: z.enum(["binary", "multiclass"]),
  /** binary only. */
  positiveClass: ZClassKey.nullable(),
  classes: z.array(ZClassKey),
  confusionMatrix: ZConfusionMatrix,
  perClass: ZPerClass,
  residuals: z.null(),
  worstExamples: z.array(ZClassifiedExample),
});

export const ZRegressionReceipt = z.strictObject({
  ...common,
  task: z.literal("regression"),
  positiveClass: z.null(),
  confusionMatrix: z.null(),
  perClass: z.null(),
  residuals: ZResiduals,
  worstExamples: z.array(ZRegressionExample),
});

/** receipt.json: the evaluation receipt of one model on the test partition. */
export const ZReceipt = z.union([ZClassificationReceipt, ZRegressionReceipt]);
export type Receipt = z.infer<typeof ZReceipt>;
export type ClassificationReceipt = z.infer<typeof ZClassificationReceipt>;
export type RegressionReceipt = z.infer<typeof ZRegressionReceipt>;

// ---- holdout_compare (holdout.py) ------------------------------------------------------

/** The paired bootstrap of a holdout comparison (both evaluators' holdout_compare). */
export const bootstrapSettings = {
  resamples: z.int().min(100).max(100_000).default(2000),
  confidence: z.number().gt(0.5).lt(1).default(0.95),
  seed: z.int().min(0).default(0),
};

/** The first two versions' difference (second − first) with its paired-bootstrap interval. */
export const ZPairedDifference = z.strictObject({
  estimate: z.number(),
  low: z.number(),
  high: z.number(),
  confidence: z.number(),
  resamples: z.int().positive(),
  of: z.tuple([z.int().positive(), z.int().positive()]),
});

export const ZHoldoutCompareInput = z.strictObject({
  holdout: ref("the reserved holdout file, as stored"),
  datasetFormat: ZTableFormat,
  labels: ref("the data.holdout_rows output folder (its labels.parquet)"),
  task: ZTask,
  metric: ZMetricName,
  positiveClass: ZClassValue.nullable().optional(),
  classes: z.array(ZClassValue).nullable().optional(),
  versions: z
    .array(
      z.strictObject({
        version: z.int().positive(),
        predictions: ref("the version's tabular.predict output on the holdout rows"),
        trainedRows: ref("the version's trained_rows.txt (its split's): the rows it learnt, tuned and was tested on"),
      }),
    )
    .min(2),
  ...bootstrapSettings,
});
export type HoldoutCompareJobInput = z.input<typeof ZHoldoutCompareInput>;

/** holdout_compare.json. `difference` is results[1] − results[0] in the metric's units. */
export const ZHoldoutComparison = z.strictObject({
  version: z.literal(1),
  metric: ZMetricName,
  direction: ZDirection,
  rows: z.int().positive(),
  excluded: z.strictObject({ total: z.int().nonnegative(), byVersion: z.record(z.string(), z.int().nonnegative()) }),
  results: z.array(z.strictObject({ version: z.int().positive(), value: z.number() })).min(2),
  difference: ZPairedDifference,
});
export type HoldoutComparison = z.infer<typeof ZHoldoutComparison>;

export const evaluation = {
  /** predictions.parquet: row_id, prediction, proba::<class>. */
  baseline: { input: ZBaselineInput, outputs: {} },
  score: { input: ZScoreInput, outputs: { "receipt.json": ZReceipt } },
  holdout_compare: { input: ZHoldoutCompareInput, outputs: { "holdout_compare.json": ZHoldoutComparison } },
} as const;
