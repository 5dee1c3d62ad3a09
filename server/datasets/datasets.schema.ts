import { z } from "zod";
import type { ChecksResult, Profile, SplitContract, SplitJobInput, TableFormat } from "@/contracts/recipes";
import type { LoraExamples } from "@/contracts/recipes/llm-lora";
import { ZDatasetKind, type DatasetKind } from "./dataset-kind";

const ZId = z.string().min(1).max(64);
export const ZEncoding = z.enum(["utf-8", "latin-1"]);
export const ZSha256 = z.string().regex(/^[0-9a-f]{64}$/, "a lowercase hex SHA-256");
export const ZFileName = z
  .string()
  .trim()
  .min(1, "The file needs a name.")
  .max(255, "A file name can have at most 255 characters.")
  .refine((n) => !/[\/\\\0]/.test(n), "A file name cannot contain / or \\.");

/** Query string of POST /api/datasets/upload (the body is the raw file). */
export const ZUploadQuery = z.strictObject({
  projectId: ZId,
  fileName: ZFileName,
  encoding: ZEncoding.default("utf-8"),
  /** Default: "examples" for a `.jsonl` file name, else "table". */
  kind: ZDatasetKind.optional(),
});
export type TUploadQuery = z.infer<typeof ZUploadQuery>;

export const ZRegisterPathInput = z.strictObject({
  projectId: ZId,
  path: z.string().trim().min(1, "Type the path of the file.").max(4096),
  encoding: ZEncoding.default("utf-8"),
  /** Default: "examples" for a `.jsonl` path, else "table". */
  kind: ZDatasetKind.optional(),
});
export type TRegisterPathInput = z.infer<typeof ZRegisterPathInput>;

export const ZDatasetIdInput = z.strictObject({ id: ZId });
export const ZListDatasetsInput = z.strictObject({ projectId: ZId });
export const ZReprofileInput = z.strictObject({ id: ZId, encoding: ZEncoding });

const ZClass = z.union([z.string().max(1000), z.number(), z.boolean()]).nullable();
export const ZChecksInput = z.strictObject({
  id: ZId,
  target: z.string().min(1).max(1000),
  positiveClass: ZClass.default(null),
});
export type TChecksInput = z.input<typeof ZChecksInput>;

export const ZFractions = z
  .strictObject({ train: z.number().min(0).max(1), validation: z.number().min(0).max(1), test: z.number().min(0).max(1) })
  .refine((f) => Math.abs(f.train + f.validation + f.test - 1) < 1e-9, "The train, validation and test shares must add up to 1.");

export const ZEnsureSplitInput = z
  .strictObject({
    datasetId: ZId,
    target: z.string().min(1).max(1000),
    task: z.enum(["binary", "multiclass", "regression"]),
    strategy: z.enum(["random", "group", "time"]),
    seed: z.number().int().min(0).max(2 ** 31 - 1).default(0),
    groupColumn: z.string().min(1).max(1000).optional(),
    timeColumn: z.string().min(1).max(1000).optional(),
    fractions: ZFractions.optional(),
  })
  .refine((s) => s.strategy !== "group" || s.groupColumn, "A group split needs a group column.")
  .refine((s) => s.strategy !== "time" || s.timeColumn, "A time split needs a time column.");
export type TEnsureSplitInput = z.input<typeof ZEnsureSplitInput>;

export interface ColumnSummary {
  name: string;
  type: string;
}

export interface DatasetError {
  code: string;
  message: string;
}

export type DatasetStatus = "profiling" | "ready" | "failed";

export interface DatasetView {
  id: string;
  projectId: string;
  name: string;
  /** "table" (columns, a prediction model) or "examples" (JSONL for fine-tuning a language model). */
  kind: DatasetKind;
  status: DatasetStatus;
  error: DatasetError | null;
  snapshotSha256: string;
  /** What a job input names the snapshot by; the worker resolves it in its store. */
  snapshotRef: string;
  bytes: number;
  /** Data rows of a table; usable examples of a file of examples. */
  rowCount: number | null;
  columnCount: number | null;
  columns: ColumnSummary[];
  /** profile.tableFormat: what every later data job takes as `datasetFormat`. */
  datasetFormat: TableFormat | null;
  sourceKind: "upload" | "path";
  sourceName: string;
  encoding: "utf-8" | "latin-1";
  profileJobId: string | null;
  createdAt: string;
  /** Computers holding a verified copy of the snapshot. */
  copies: { workerId: string; targetId: string }[];
  /** Experiments that use this dataset. */
  usedBy: { id: string; name: string; status: string }[];
}

export interface DatasetDetailView extends DatasetView {
  /** profile.json of the data recipe; null until the profile job succeeded, and for examples. */
  profile: Profile | null;
  /** examples.json of llm-lora.profile_examples (formats, usable count, problem lines, preview); null for a table. */
  examples: LoraExamples | null;
}

export interface SetupProgress {
  /** The prepare job that builds the data tools on the computer. */
  jobId: string;
  state: string;
  reason: string | null;
  detail: string | null;
  /** Last part of its log (pip output). */
  logTail: string;
  startedAt: string | null;
}

export interface ProfileStatusView {
  datasetId: string;
  status: DatasetStatus;
  error: DatasetError | null;
  /** Non-null while the data tools are being set up on the computer (first use). */
  setup: SetupProgress | null;
  job: { id: string; state: string; startedAt: string | null; endedAt: string | null } | null;
}

/** One example of a JSONL file as a conversation, with its line in the file. */
export type PreviewConversation = LoraExamples["preview"][number];

export interface PreviewView {
  datasetId: string;
  /** "examples": `conversations` holds the first examples (from examples.json); header and rows are empty. */
  kind: "table" | "binary" | "examples";
  delimiter: string | null;
  header: string[];
  rows: string[][];
  truncated: boolean;
  note: string | null;
  conversations: PreviewConversation[];
}

export interface ChecksView {
  datasetId: string;
  target: string;
  positiveClass: string | number | boolean | null;
  status: "running" | "ready" | "failed";
  jobId: string | null;
  error: DatasetError | null;
  setup: SetupProgress | null;
  /** checks.json of the data recipe; null until the checks job succeeded. */
  result: ChecksResult | null;
}

export interface SplitView {
  id: string;
  status: "running" | "ready" | "failed";
  error: string | null;
  jobId: string | null;
  /** The data.split input it was started with. */
  settings: SplitJobInput | null;
  /** split.json of the data recipe; null until the split job succeeded. */
  contract: SplitContract | null;
  /** `sha256:<split job output hash>`; the worker resolves it to the split's output folder. */
  splitRef: string | null;
  outputSha256: string | null;
}

export interface DeletePreviewView {
  datasetId: string;
  name: string;
  /** Other datasets (any project) that use the same snapshot: it stays while they exist. */
  sharedWith: { id: string; projectId: string; projectName: string | null; name: string }[];
  /** Bytes freed in the store (0 when the snapshot stays). */
  freedBytes: number;
  removesSnapshot: boolean;
  blockers: { kind: "job" | "export" | "base_model"; id: string; label: string }[];
  usedBy: { id: string; name: string; status: string }[];
  /** Servers holding a copy of the snapshot that deleting removes too. */
  serverCopies: string[];
  canDelete: boolean;
}

export interface DeleteResultView extends DeletePreviewView {
  /** Server copies that could not be removed (the server did not answer): delete them there. */
  copiesLeft: { computer: string; reason: string }[];
}
