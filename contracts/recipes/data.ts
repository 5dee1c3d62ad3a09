/**
 * The `data` recipe (training/recipes/data): each job's input and the files it writes.
 * Shapes follow the Python that writes them (profile.py + columns.py, checks.py, split.py).
 */
import { z } from "zod";
import { ZClassKey, ZClassValue, ZDirection, ZEncoding, ZFractions, ZMetricName, ZPartitionName, ZSha256Hex, ZTableFormat, ZTask, ref } from "./common";

const dataset = () => ref("dataset snapshot, referenced as sha256:<hex> (resolved to a read-only path by the worker)");

// ---- profile --------------------------------------------------------------------------

export const ZProfileInput = z.strictObject({
  dataset: dataset(),
  fileName: z.string().describe("the name the user knows the file by (for messages)").optional(),
  encoding: ZEncoding.default("utf-8"),
  limits: z
    .strictObject({
      maxLineBytes: z.int().min(1).default(10485760),
      maxColumns: z.int().min(1).default(10000),
      maxDecompressedBytes: z.int().min(1).default(2147483648),
    })
    .optional(),
});
/** The input as a caller writes it (defaulted fields optional). */
export type ProfileJobInput = z.input<typeof ZProfileInput>;

export const COLUMN_TYPES = ["numeric", "categorical", "boolean", "datetime", "text", "id_like", "empty"] as const;
export const ZColumnType = z.enum(COLUMN_TYPES);
export type ColumnType = z.infer<typeof ZColumnType>;

const ZValueCount = z.strictObject({ value: z.string(), count: z.int().nonnegative() });

/** One column of profile.json (columns.py summarize). */
export const ZProfileColumn = z.strictObject({
  name: z.string(),
  type: ZColumnType,
  dtype: z.string(),
  missing: z.int().nonnegative(),
  distinct: z.int().nonnegative(),
  preview: z.array(z.string()),
  /** Numbers: the smallest and largest value; dates: ISO timestamps. */
  min: z.union([z.number(), z.string()]).nullable().optional(),
  max: z.union([z.number(), z.string()]).nullable().optional(),
  mean: z.number().nullable().optional(),
  std: z.number().nullable().optional(),
  /** Dates: values that did not parse as dates. */
  unparsed: z.int().nonnegative().optional(),
  /** Numbers only: every value is a whole number. */
  integers: z.boolean().optional(),
  /** Numbers only: the values, in file order, never go down (or never go up). */
  order: z.enum(["increasing", "decreasing"]).nullable().optional(),
  /** The most common values, most first (all of them when there are at most 10). */
  topValues: z.array(ZValueCount).optional(),
  /** The rarest values, fewest first (columns with more than 10 distinct values). */
  fewestValues: z.array(ZValueCount).optional(),
});
export type ProfileColumn = z.infer<typeof ZProfileColumn>;

/** profile.json: the detected table format and every column. */
export const ZProfile = z.strictObject({
  version: z.literal(1),
  fileName: z.string(),
  bytes: z.int().nonnegative(),
  sha256: ZSha256Hex,
  /** gzip-compressed files only: the size once decompressed. */
  decompressedBytes: z.int().nonnegative().nullable(),
  tableFormat: ZTableFormat,
  rows: z.int().nonnegative(),
  columnCount: z.int().nonnegative(),
  duplicateRows: z.int().nonnegative(),
  columns: z.array(ZProfileColumn),
});
export type Profile = z.infer<typeof ZProfile>;

// ---- checks ---------------------------------------------------------------------------

export const ZChecksInput = z.strictObject({
  dataset: dataset(),
  datasetFormat: ZTableFormat,
  target: z.string().min(1),
  positiveClass: ZClassValue.nullable().describe("binary only; default: the minority class").optional(),
  fractions: ZFractions.optional(),
});
/** The input as a caller writes it (defaulted fields optional). */
export type ChecksJobInput = z.input<typeof ZChecksInput>;

export const RECOMMENDED_ACTION_KINDS = ["exclude_columns", "time_split", "group_split", "drop_rows", "none"] as const;

/** What checks recommends for an issue; the wizard and the CLI apply it. */
export const ZRecommendedAction = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("exclude_columns"), columns: z.array(z.string()) }),
  z.strictObject({ kind: z.literal("time_split"), column: z.string() }),
  z.strictObject({ kind: z.literal("group_split"), column: z.string() }),
  z.strictObject({ kind: z.literal("drop_rows") }),
  z.strictObject({ kind: z.literal("none") }),
]);
export type RecommendedAction = z.infer<typeof ZRecommendedAction>;

export const ISSUE_CODES = [
  "missing_target",
  "missing_values",
  "duplicate_rows",
  "constant_column",
  "id_like_column",
  "time_column",
  "group_column",
  "class_imbalance",
  "too_few_rows",
  "leakage_suspect",
] as const;
export const ZIssueSeverity = z.enum(["high", "warning", "info"]);

/** One data issue of checks.json (checks.py _issue). */
export const ZDataIssue = z.strictObject({
  code: z.enum(ISSUE_CODES),
  columns: z.array(z.string()),
  severity: ZIssueSeverity,
  message: z.string(),
  recommendedAction: ZRecommendedAction,
  /** missing_values only: missing cells per column. */
  missingCounts: z.record(z.string(), z.int().nonnegative()).optional(),
});
export type DataIssue = z.infer<typeof ZDataIssue>;

/** checks.json: the suggested task and metric for a target, and the issues that affect it. */
export const ZChecksResult = z.strictObject({
  version: z.literal(1),
  target: z.string(),
  rows: z.int().nonnegative(),
  labelledRows: z.int().nonnegative(),
  task: ZTask,
  taskReason: z.string(),
  metric: ZMetricName,
  metricDirection: ZDirection,
  metricReason: z.string(),
  /** binary only: the class scored as positive. */
  positiveClass: ZClassKey.nullable(),
  /** classification only: labelled rows per class, most first. */
  classCounts: z.record(z.string(), z.int().nonnegative()).nullable(),
  columnTypes: z.record(z.string(), ZColumnType),
  issues: z.array(ZDataIssue),
});
export type ChecksResult = z.infer<typeof ZChecksResult>;

// ---- split ----------------------------------------------------------------------------

export const ZSplitInput = z.strictObject({
  dataset: dataset(),
  datasetFormat: ZTableFormat,
  snapshotSha256: z
    .string()
    .regex(/^(sha256:)?[0-9a-f]{64}$/)
    .describe("SHA-256 of the dataset snapshot; checked against the file"),
  target: z.string().min(1),
  task: ZTask,
  strategy: z.enum(["random", "group", "time"]),
  seed: z.int().min(0).default(0),
  groupColumn: z.string().describe("required when strategy is group").optional(),
  timeColumn: z.string().describe("required when strategy is time").optional(),
  fractions: ZFractions.optional(),
  holdouts: z
    .array(z.strictObject({ dataset: ref("a reserved holdout file, as stored"), datasetFormat: ZTableFormat }))
    .max(50)
    .describe("the project's reserved holdouts: rows equal to theirs (and, by strategy, their groups or times) are kept out")
    .optional(),
});
/** The input as a caller writes it (defaulted fields optional). */
export type SplitJobInput = z.input<typeof ZSplitInput>;

/** split.json: the split contract (split.py). */
export const ZSplitContract = z.strictObject({
  version: z.literal(1),
  snapshotSha256: ZSha256Hex,
  strategy: z.enum(["random", "group", "time"]),
  seed: z.int().nonnegative(),
  target: z.string(),
  task: ZTask,
  groupColumn: z.string().nullable(),
  timeColumn: z.string().nullable(),
  /** time only: the last training time, and where validation and test begin (ISO or a number). */
  cutoff: z.union([z.string(), z.number()]).nullable(),
  validationStart: z.union([z.string(), z.number()]).nullable().optional(),
  testStart: z.union([z.string(), z.number()]).nullable().optional(),
  fractions: z.strictObject({ train: z.number(), validation: z.number(), test: z.number() }),
  dedup: z.literal("exact_duplicates_first_kept"),
  partitionFile: z.literal("partition.csv"),
  partitionSha256: ZSha256Hex,
  counts: z.strictObject({
    train: z.int().nonnegative(),
    validation: z.int().nonnegative(),
    test: z.int().nonnegative(),
    excluded: z.int().nonnegative(),
  }),
  rows: z.int().nonnegative(),
  excludedReasons: z.strictObject({
    duplicate: z.int().nonnegative(),
    missingTarget: z.int().nonnegative(),
    missingTime: z.int().nonnegative(),
    /** Kept out for a reserved holdout (absent from splits made before holdouts existed). */
    holdout: z.int().nonnegative().optional(),
  }),
  /** Per reserved holdout checked: rows equal to its rows, of its groups, and not before its first time. */
  holdouts: z
    .array(z.strictObject({ sha256: ZSha256Hex, columns: z.int().nonnegative(), sameRows: z.int().nonnegative(), sameGroup: z.int().nonnegative(), notBefore: z.int().nonnegative() }))
    .optional(),
  /** trained_rows.txt: the normalised hashes of every train, validation and test row (exclusion evidence). */
  trainedRowsFile: z.literal("trained_rows.txt").optional(),
  trainedRowsSha256: ZSha256Hex.optional(),
});
export type SplitContract = z.infer<typeof ZSplitContract>;

// ---- features -------------------------------------------------------------------------

export const ZFeaturesInput = z.strictObject({
  dataset: dataset(),
  datasetFormat: ZTableFormat,
  split: ref("the data.split job's output folder (sha256:<hex of its split.json>), or the path of its split.json or of a partition.csv"),
  partition: ZPartitionName,
  target: z.string().describe("default: the target recorded in split.json").optional(),
  excludeColumns: z.array(z.string()).default([]),
});
/** The input as a caller writes it (defaulted fields optional). */
export type FeaturesJobInput = z.input<typeof ZFeaturesInput>;

// ---- holdout_rows (holdout.py) ---------------------------------------------------------

export const ZHoldoutRowsInput = z.strictObject({
  dataset: ref("a reserved holdout file, as stored"),
  datasetFormat: ZTableFormat,
  target: z.string().min(1),
  excludeColumns: z.array(z.string()).default([]),
});
export type HoldoutRowsJobInput = z.input<typeof ZHoldoutRowsInput>;

// ---- newest_rows (newest.py) ------------------------------------------------------------

export const ZNewestRowsInput = z.strictObject({
  dataset: dataset(),
  datasetFormat: ZTableFormat,
  timeColumn: z.string().min(1),
  fraction: z.number().gt(0).max(0.5).default(0.1).describe("the newest share of the rows with a time; ties at the cut are held out together"),
});
export type NewestRowsJobInput = z.input<typeof ZNewestRowsInput>;

/** newest.json: which file holds the rows, how many of how many, from which time (ISO text, or a number). */
export const ZNewestRows = z.strictObject({
  version: z.literal(1),
  file: z.enum(["holdout.csv", "holdout.parquet"]),
  rows: z.int().positive(),
  of: z.int().positive(),
  from: z.union([z.string(), z.number()]),
});
export type NewestRows = z.infer<typeof ZNewestRows>;

// ---- reference ------------------------------------------------------------------------
// A monitor's frozen reference: per input column, the bins a request's value is counted in
// and how many training rows fell in each. Values are compared as canonical text: a string
// as it is, true/false, a number as JavaScript's String() writes it (3, 0.5).

export const ZReferenceColumnSpec = z.strictObject({ name: z.string().min(1), kind: z.enum(["numeric", "categorical"]) });

export const ZReferenceInput = z.strictObject({
  dataset: dataset(),
  datasetFormat: ZTableFormat,
  split: ref("the data.split job's output folder (sha256:<hex of its split.json>), or the path of its split.json or of a partition.csv"),
  partition: ZPartitionName.default("train"),
  columns: z.array(ZReferenceColumnSpec).min(1),
  bins: z.int().min(2).max(50).default(10).describe("numeric columns: quantile bins (fewer where values tie)"),
  maxCategories: z.int().min(1).max(200).default(50).describe("categorical columns: the most common values kept; the rest count as other"),
});
export type ReferenceJobInput = z.input<typeof ZReferenceInput>;

/** counts: one per bin (value <= edges[i] falls in bin i, above the last edge in the last bin), then missing. */
const ZNumericReference = z.strictObject({
  name: z.string(),
  kind: z.literal("numeric"),
  edges: z.array(z.number()),
  counts: z.array(z.int().nonnegative()),
});
/** counts: one per category, then other (a value not among them), then missing. */
const ZCategoricalReference = z.strictObject({
  name: z.string(),
  kind: z.literal("categorical"),
  categories: z.array(z.string()),
  counts: z.array(z.int().nonnegative()),
});
export const ZReferenceColumn = z
  .discriminatedUnion("kind", [ZNumericReference, ZCategoricalReference])
  .refine((c) => c.counts.length === (c.kind === "numeric" ? c.edges.length + 2 : c.categories.length + 2), "counts: one per bin, then other (categorical), then missing");
export type ReferenceColumn = z.infer<typeof ZReferenceColumn>;

export const ZReference = z.strictObject({
  version: z.literal(1),
  partition: ZPartitionName,
  rows: z.int().nonnegative(),
  columns: z.array(ZReferenceColumn),
});
export type Reference = z.infer<typeof ZReference>;

export const data = {
  profile: { input: ZProfileInput, outputs: { "profile.json": ZProfile } },
  checks: { input: ZChecksInput, outputs: { "checks.json": ZChecksResult } },
  split: { input: ZSplitInput, outputs: { "split.json": ZSplitContract } },
  /** features.parquet and labels.parquet are tables, read by other recipes, not by TypeScript. */
  features: { input: ZFeaturesInput, outputs: {} },
  reference: { input: ZReferenceInput, outputs: { "reference.json": ZReference } },
  /** features.parquet and labels.parquet of a holdout's rows with a target. */
  holdout_rows: { input: ZHoldoutRowsInput, outputs: {} },
  /** holdout.csv (a text dataset, cells as the file has them) or holdout.parquet: a file to reserve. */
  newest_rows: { input: ZNewestRowsInput, outputs: { "newest.json": ZNewestRows } },
} as const;
