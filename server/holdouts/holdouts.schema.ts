/** zod at the holdouts' doors (the upload route, tRPC, the CLI's JSON answers). */
import { z } from "zod";
import { ZDirection, ZMetricName } from "@/contracts/recipes/common";
import { ZEncoding, ZFileName } from "@/server/datasets/datasets.schema";
import { ZDatasetKind, type DatasetKind } from "@/server/datasets/dataset-kind";

const ZId = z.string().min(1).max(64);

export const ZHoldoutUploadQuery = z.strictObject({
  projectId: ZId,
  fileName: ZFileName,
  /** Default: the file's name. */
  name: z.string().trim().min(1).max(200).optional(),
  encoding: ZEncoding.default("utf-8"),
  /** Default: by the file's name (.jsonl: examples for fine-tuning, else a table). */
  kind: ZDatasetKind.optional(),
});
export type THoldoutUploadQuery = z.infer<typeof ZHoldoutUploadQuery>;

/** Reserving a dataset's newest rows by a time column (the default holdout of a time-ordered task). */
export const ZReserveNewestInput = z.strictObject({
  projectId: ZId,
  datasetId: ZId,
  timeColumn: z.string().min(1).max(1000),
  /** The newest share of the rows, in percent; rows that share the cut's time come too. */
  percent: z.number().gt(0).max(50).default(10),
  /** Default: "<dataset> — newest <percent>%". */
  name: z.string().trim().min(1).max(200).optional(),
});
export type TReserveNewestInput = z.input<typeof ZReserveNewestInput>;

export const ZListHoldoutsInput = z.strictObject({ projectId: ZId });

export const ZCompareOnHoldoutInput = z.strictObject({
  modelId: ZId,
  /** Version numbers; the difference is the second's value minus the first's. */
  versions: z.array(z.int().positive()).min(2, "Name at least two versions.").max(10),
  /** Default: the project's newest holdout. */
  holdoutId: ZId.optional(),
});
export type TCompareOnHoldoutInput = z.infer<typeof ZCompareOnHoldoutInput>;

export interface HoldoutView {
  id: string;
  projectId: string;
  name: string;
  sha256: string;
  bytes: number;
  fileName: string;
  /** A table's rows, or a file of examples whose prompts fine-tunes keep out. */
  kind: DatasetKind;
  /** Rows of a table; usable examples of a file of examples. */
  rows: number;
  /** A table's columns; none for examples. */
  columns: string[];
  createdAt: string;
  /** Answered by an upload of bytes the project already holds as a holdout. */
  reused?: boolean;
}

export const ZHoldoutIdInput = z.strictObject({ id: ZId });

/** What deleting a holdout would do, and what stops it now. */
export interface HoldoutDeletePreview {
  holdoutId: string;
  name: string;
  rows: number;
  /** False when a dataset or another project's holdout holds the same bytes: the file stays. */
  removesFile: boolean;
  blockers: { kind: "experiment" | "search" | "job"; id: string; label: string }[];
  canDelete: boolean;
}
export interface HoldoutDeleteResult extends HoldoutDeletePreview {
  /** Computers that kept their copy of the file, and why (best effort). */
  copiesLeft: { computer: string; reason: string }[];
}

export const ZHoldoutCompareResult = z.strictObject({
  holdout: z.strictObject({ id: z.string(), name: z.string() }),
  /** A tabular model's own metric, or a fine-tune's loss on the answer tokens. */
  metric: z.union([ZMetricName, z.literal("mean_nll_per_answer_token")]),
  direction: ZDirection,
  /** What was scored: a table's rows, or a file's examples (fine-tunes). */
  unit: z.enum(["rows", "examples"]),
  /** Holdout rows (or examples) scored: those no compared version learnt from. */
  rows: z.int().positive(),
  excluded: z.strictObject({ total: z.int().nonnegative(), byVersion: z.record(z.string(), z.int().nonnegative()) }),
  results: z.array(z.strictObject({ version: z.int().positive(), value: z.number() })),
  difference: z.strictObject({ estimate: z.number(), low: z.number(), high: z.number(), confidence: z.number(), of: z.tuple([z.int(), z.int()]) }),
});
export type HoldoutCompareResult = z.infer<typeof ZHoldoutCompareResult>;
