// Request schemas of the worker control protocol (one JSON object on stdin).
import { z } from "zod";
import { ZSlurmArrayMember } from "./slurm";

export const WORKER_PROTOCOL = 2 as const; // 2: import became a job (receipt + report), not one control call
export const MAX_REQUEST_BYTES = 256 * 1024;
export const MAX_LOG_CHUNK_BYTES = 256 * 1024;

const ZSha256 = z.string().regex(/^[0-9a-f]{64}$/, "lowercase hex SHA-256");
const ZOpId = z.string().min(1).max(200);
const base = { protocol: z.literal(WORKER_PROTOCOL) };

export const ZResources = z.object({
  cpus: z.number().positive(),
  ramGb: z.number().nonnegative(),
  /** Whole GPUs, one job per GPU. */
  gpus: z.number().int().nonnegative().optional(),
  /** Shared GPU: memory on one GPU (not combined with `gpus`). */
  gpuMemoryGb: z.number().positive().optional(),
});
export type TResources = z.infer<typeof ZResources>;

export const ZProbeRequest = z.object({
  ...base,
  op: z.literal("probe"),
  /** On a Slurm computer: also run a tiny job to see whether a compute node sees the worker's home (seconds, or up to a minute). */
  checkSharedHome: z.boolean().optional(),
});
export const ZPrepareRequest = z.object({
  ...base,
  op: z.literal("prepare"),
  opId: ZOpId,
  recipe: z.string().min(1),
  /** Base interpreter (absolute path or a candidate name); default: the first that can make venvs. */
  python: z.string().min(1).optional(),
  priority: z.number().int().default(0),
});
export const ZPutRequest = z.object({ ...base, op: z.literal("put"), opId: ZOpId.optional(), sha256: ZSha256, bytes: z.number().int().nonnegative() });
export const ZSubmitRequest = z.object({
  ...base,
  op: z.literal("submit"),
  opId: ZOpId,
  intentHash: z.string().min(1).max(200),
  recipe: z.string().min(1),
  job: z.string().min(1),
  environmentId: ZSha256,
  input: z.record(z.string(), z.unknown()),
  priority: z.number().int().default(0),
  resources: ZResources,
  deadlineSeconds: z.number().positive(),
  graceSeconds: z.number().nonnegative().optional(),
  /** On a Slurm computer: the job is one task of a job array (a search's round of trials). */
  slurmArray: ZSlurmArrayMember.optional(),
});
const jobOrOp = { jobId: z.string().min(1).optional(), opId: ZOpId.optional() };
export const ZInspectRequest = z
  .object({ ...base, op: z.literal("inspect"), ...jobOrOp })
  .refine((r) => Boolean(r.jobId) !== Boolean(r.opId), "give exactly one of jobId or opId");
export const ZListRequest = z.object({ ...base, op: z.literal("list"), states: z.array(z.string()).optional() });
export const ZLogsRequest = z.object({
  ...base,
  op: z.literal("logs"),
  jobId: z.string().min(1),
  stream: z.enum(["log", "events"]).default("log"),
  offset: z.number().int().nonnegative().default(0),
  maxBytes: z.number().int().positive().max(MAX_LOG_CHUNK_BYTES).default(MAX_LOG_CHUNK_BYTES),
});
export const ZCancelRequest = z.object({ ...base, op: z.literal("cancel"), opId: ZOpId.optional(), jobId: z.string().min(1) });
export const ZArtifactsRequest = z.object({ ...base, op: z.literal("artifacts"), jobId: z.string().min(1) });
export const ZFetchRequest = z.object({ ...base, op: z.literal("fetch"), jobId: z.string().min(1), path: z.string().min(1) });
export const ZPeekRequest = z
  .object({
    ...base,
    op: z.literal("peek"),
    path: z.string().min(1).optional(),
    sha256: ZSha256.optional(),
    maxRows: z.number().int().positive().max(10_000).default(20),
    maxBytes: z.number().int().positive().max(1024 * 1024).default(64 * 1024),
  })
  .refine((r) => Boolean(r.path) !== Boolean(r.sha256), "give exactly one of path or sha256");
/** Default wall limit of an import job: 1 TiB at ~100 MB/s is about three hours. */
export const IMPORT_DEADLINE_S = 6 * 3600;
/**
 * Starts an import job (the copy runs under a supervisor, not inside this call): the
 * answer is its receipt at once; `inspect` says when it ends and `importResultOf` reads
 * the stored blob from the final receipt. The path is checked here too, so a path that
 * is plainly outside the roots or not a file is refused without a job.
 */
export const ZImportRequest = z.object({
  ...base,
  op: z.literal("import"),
  opId: ZOpId,
  path: z.string().min(1),
  deadlineSeconds: z.number().positive().max(7 * 86_400).default(IMPORT_DEADLINE_S),
});
export const ZGcRequest = z.object({
  ...base,
  op: z.literal("gc"),
  opId: ZOpId.optional(),
  dryRun: z.boolean().default(true),
  olderThanDays: z.number().nonnegative().default(30),
  /** Also delete store blobs older than N days that no active job references. Off by default. */
  includeStore: z.boolean().default(false),
  /**
   * Only these store blobs (a deleted dataset's snapshot), whatever their age: nothing else
   * is collected, and a blob an active job reads is kept. The answer says what became of each.
   */
  blobs: z.array(ZSha256).min(1).max(1000).optional(),
  /**
   * Only these ended jobs' folders (an inference job's rows and predictions, once answered),
   * whatever their age; their receipts stay, marked gcAt. An active job is left alone.
   * Goes with `blobs` or alone.
   */
  jobIds: z.array(z.string().regex(/^[A-Za-z0-9_-]{1,128}$/)).min(1).max(100).optional(),
});

export const REQUEST_SCHEMAS = {
  probe: ZProbeRequest,
  prepare: ZPrepareRequest,
  put: ZPutRequest,
  submit: ZSubmitRequest,
  inspect: ZInspectRequest,
  list: ZListRequest,
  logs: ZLogsRequest,
  cancel: ZCancelRequest,
  artifacts: ZArtifactsRequest,
  fetch: ZFetchRequest,
  peek: ZPeekRequest,
  import: ZImportRequest,
  gc: ZGcRequest,
} as const;
export type WorkerOp = keyof typeof REQUEST_SCHEMAS;
export const WORKER_OPS = Object.keys(REQUEST_SCHEMAS) as WorkerOp[];

export type TProbeRequest = z.input<typeof ZProbeRequest>;
export type TPrepareRequest = z.input<typeof ZPrepareRequest>;
export type TPutRequest = z.input<typeof ZPutRequest>;
export type TSubmitRequest = z.input<typeof ZSubmitRequest>;
export type TInspectRequest = z.input<typeof ZInspectRequest>;
export type TListRequest = z.input<typeof ZListRequest>;
export type TLogsRequest = z.input<typeof ZLogsRequest>;
export type TCancelRequest = z.input<typeof ZCancelRequest>;
export type TArtifactsRequest = z.input<typeof ZArtifactsRequest>;
export type TFetchRequest = z.input<typeof ZFetchRequest>;
export type TPeekRequest = z.input<typeof ZPeekRequest>;
export type TImportRequest = z.input<typeof ZImportRequest>;
export type TGcRequest = z.input<typeof ZGcRequest>;
export type TWorkerRequest =
  | TProbeRequest | TPrepareRequest | TPutRequest | TSubmitRequest | TInspectRequest | TListRequest
  | TLogsRequest | TCancelRequest | TArtifactsRequest | TFetchRequest | TPeekRequest | TImportRequest | TGcRequest;
