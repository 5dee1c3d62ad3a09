/**
 * Shapes shared by several recipes' inputs and outputs (training/trainyard_recipe,
 * docs/dev/contracts.md): table formats, tasks, metrics, class values, hashes.
 */
import { z } from "zod";

// Tasks, metrics and directions are the vocabulary's (one list for recipes, UI and CLI).
export { TASKS, ZTask, type Task } from "../vocabulary/tasks";
export { ZDirection, type Direction } from "../vocabulary/metrics";
/** Metric names as the evaluator computes them (training/evaluation/metrics.py). */
export { METRICS as METRIC_NAMES, ZMetric as ZMetricName, type Metric as MetricName } from "../vocabulary/metrics";

export const TABLE_FORMATS = ["csv", "tsv", "csv.gz", "parquet"] as const;
export const ZEncoding = z.enum(["utf-8", "latin-1"]);

/** A lowercase hex SHA-256 (what every recipe writes). */
export const ZSha256Hex = z.string().regex(/^[0-9a-f]{64}$/);

/** The table format object data.profile writes as profile.json `tableFormat` (trainyard_recipe/tables.py). */
export const ZTableFormat = z
  .strictObject({
    format: z.enum(TABLE_FORMATS),
    delimiter: z.string().min(1).max(1).optional(),
    encoding: ZEncoding.optional(),
    header: z.boolean().optional(),
    quotechar: z.string().min(1).max(1).optional(),
  })
  .describe("table format object from data.profile's profile.json tableFormat");
export type TableFormat = z.infer<typeof ZTableFormat>;

/** A class as the user names it in an input (a target value: text, number or yes/no). */
export const ZClassValue = z.union([z.string(), z.number(), z.boolean()]);
export type ClassValue = z.infer<typeof ZClassValue>;

/** A class as every recipe writes it: its canonical text key (tabular/classes.py class_key). */
export const ZClassKey = z.string();

export const ZPartitionName = z.enum(["train", "validation", "test"]);

export const ZFractions = z
  .strictObject({
    train: z.number().min(0).max(1),
    validation: z.number().min(0).max(1),
    test: z.number().min(0).max(1),
  })
  .describe("row shares; default 0.7 / 0.15 / 0.15; must sum to 1");

/** A job input naming a snapshot, a job output folder or a file: `sha256:<hex>`, resolved by the worker. */
export const ref = (description: string) => z.string().describe(description);
