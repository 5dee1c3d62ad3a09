/**
 * The `tabular` recipe (training/recipes/tabular, AutoGluon): train and predict, and the
 * files train writes (train.py, outputs.py, feature_schema.py).
 */
import { z } from "zod";
import { ZClassKey, ZClassValue, ZEncoding, ZMetricName, ZSha256Hex, ZTask, TABLE_FORMATS, ref } from "./common";

/** train accepts any table format object (read_table fills the defaults). */
const ZTrainTableFormat = z
  .object({
    format: z.enum(TABLE_FORMATS),
    delimiter: z.string().optional(),
    encoding: ZEncoding.optional(),
    header: z.boolean().optional(),
    quotechar: z.string().optional(),
  })
  .describe("table format object from data.profile");

export const MODEL_FAMILIES = ["GBM", "CAT", "RF", "XT", "KNN", "LR"] as const;
export const PRESETS = ["quick", "improve"] as const;

export const ZTrainInput = z.strictObject({
  dataset: ref("dataset snapshot (sha256 reference resolved to a read-only path)"),
  datasetFormat: ZTrainTableFormat,
  split: ref("output folder of data.split (split.json + partition.csv), or split.json itself"),
  target: z.string(),
  task: ZTask,
  metric: ZMetricName.describe("default: roc_auc (binary), accuracy (multiclass), rmse (regression)").optional(),
  positiveClass: ZClassValue.nullable().describe("binary only; default: the training minority class").optional(),
  excludeColumns: z.array(z.string()).optional(),
  preset: z.enum(PRESETS).default("quick"),
  timeLimitSeconds: z.number().min(15).default(120).describe("the job's budget; AutoGluon gets 75% of it minus 5 s"),
  numTrials: z.int().min(1).max(1000).default(5).describe("tuning trials per model family (preset improve)"),
  seed: z.int().min(0).default(0),
  hyperparameters: z
    .partialRecord(z.enum(MODEL_FAMILIES), z.unknown())
    .describe("AutoGluon hyperparameters keyed by model family, replacing the preset's")
    .optional(),
});
/** The input as a caller writes it (defaulted fields optional). */
export type TrainJobInput = z.input<typeof ZTrainInput>;

export const ZPredictInput = z.strictObject({
  model: ref("output folder of a tabular.train job"),
  features: ref("features.parquet (row_id + feature columns) or its folder, or a table of new rows with datasetFormat"),
  datasetFormat: ZTrainTableFormat.describe("only for a table of new rows; row ids are then the 0-based row index").optional(),
  latencyRows: z
    .int()
    .min(1)
    .max(200)
    .describe("also time this many single-row predictions (after one unmeasured) and write latency.json")
    .optional(),
});
/** The input as a caller writes it (defaulted fields optional). */
export type PredictJobInput = z.input<typeof ZPredictInput>;

/** training.json: what was trained, on what, and how long it took (train.py). */
export const ZTraining = z.strictObject({
  recipe: z.literal("tabular"),
  recipeVersion: z.string(),
  autogluonVersion: z.string(),
  task: ZTask,
  target: z.string(),
  metric: ZMetricName,
  autogluonMetric: z.string(),
  positiveClass: ZClassKey.nullable(),
  /** classification only: the classes in the model's order, as class keys. */
  classLabels: z.array(ZClassKey).nullable(),
  features: z.array(z.string()),
  excludeColumns: z.array(z.string()),
  preset: z.enum(PRESETS),
  numTrials: z.int().nullable(),
  seed: z.int().nonnegative(),
  timeLimitSeconds: z.number(),
  fitTimeLimitSeconds: z.number(),
  fitSeconds: z.number(),
  wallSeconds: z.number(),
  cpus: z.number(),
  bestModel: z.string(),
  validationScore: z.number().nullable(),
  modelsFit: z.int().nonnegative(),
  trainRows: z.int().nonnegative(),
  validationRows: z.int().nonnegative(),
  snapshotSha256: ZSha256Hex,
  splitSha256: ZSha256Hex,
  /** "feature_importance.json" when it was written. */
  featureImportance: z.literal("feature_importance.json").nullable(),
  /** Why it was not (skipped for time, or failed). */
  featureImportanceNote: z.string().nullable(),
});
export type Training = z.infer<typeof ZTraining>;

/** One model of leaderboard.json, best first (outputs.py leaderboard_rows). */
export const ZLeaderboardModel = z.strictObject({
  model: z.string(),
  /** In the metric's own units. */
  validationScore: z.number().nullable(),
  fitSeconds: z.number().nullable(),
  predictSecondsValidation: z.number().nullable(),
  stackLevel: z.int(),
});
export type LeaderboardModel = z.infer<typeof ZLeaderboardModel>;

export const ZLeaderboard = z.strictObject({
  metric: ZMetricName,
  partition: z.literal("validation"),
  models: z.array(ZLeaderboardModel),
});
export type Leaderboard = z.infer<typeof ZLeaderboard>;

/** feature_importance.json: permutation importance on the validation partition (outputs.py). */
export const ZFeatureImportance = z.strictObject({
  method: z.literal("permutation"),
  partition: z.literal("validation"),
  metricUnits: z.string(),
  features: z.array(
    z.strictObject({
      name: z.string(),
      importance: z.number().nullable(),
      stddev: z.number().nullable(),
      pValue: z.number().nullable(),
      shuffleSets: z.int().nullable(),
    }),
  ),
});
export type FeatureImportance = z.infer<typeof ZFeatureImportance>;

export const FEATURE_KINDS = ["numeric", "boolean", "categorical", "text", "datetime"] as const;

/** A JSON-safe example value (feature_schema.py _plain: numbers, text, yes/no, or none). */
const ZPlain = z.union([z.string(), z.number(), z.boolean()]).nullable();

/** One column of feature_schema.json: what new rows must hold. */
export const ZFeatureSchemaEntry = z.strictObject({
  name: z.string(),
  dtype: z.string(),
  kind: z.enum(FEATURE_KINDS),
  nullable: z.boolean(),
  usedByModel: z.boolean(),
  example: ZPlain,
  /** numeric only: the training range (none when every value was missing). */
  min: z.number().nullable().optional(),
  max: z.number().nullable().optional(),
  /** categorical and boolean only: the most common values (at most 50). */
  categories: z.array(z.string()).optional(),
  categoriesTruncated: z.boolean().optional(),
});
export type FeatureSchemaEntry = z.infer<typeof ZFeatureSchemaEntry>;

export const ZFeatureSchema = z.strictObject({
  version: z.literal(1),
  features: z.array(ZFeatureSchemaEntry),
});
export type FeatureSchema = z.infer<typeof ZFeatureSchema>;

/**
 * latency.json (predict.py, with latencyRows): single-row predictions timed in the predict
 * process, the model already loaded, as a deployment answers one request. Measured on the
 * computer that ran the job: a policy's latency limit compares its p95.
 */
export const ZPredictLatency = z.strictObject({
  version: z.literal(1),
  rows: z.int().positive(),
  medianMs: z.number().nonnegative(),
  p95Ms: z.number().nonnegative(),
});
export type PredictLatency = z.infer<typeof ZPredictLatency>;

export const tabular = {
  train: {
    input: ZTrainInput,
    outputs: {
      "training.json": ZTraining,
      "leaderboard.json": ZLeaderboard,
      "feature_importance.json": ZFeatureImportance,
      "feature_schema.json": ZFeatureSchema,
    },
  },
  /** predictions.parquet (row_id, prediction, proba::<class>) is a table: it is read as Parquet. */
  predict: { input: ZPredictInput, outputs: { "latency.json": ZPredictLatency } },
} as const;
