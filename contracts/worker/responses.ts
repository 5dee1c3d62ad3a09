// Response schemas of the worker control protocol (one JSON object on stdout).
import { z } from "zod";
import { ZSlurmProbe } from "./slurm";
import { ZErrorCode } from "./states";
import { ZReceipt } from "./receipt";

export const ZWorkerError = z.object({ code: ZErrorCode, message: z.string(), details: z.unknown().optional() });
export type TWorkerError = z.infer<typeof ZWorkerError>;
export const ZErrorResponse = z.object({ ok: z.literal(false), protocol: z.number(), error: ZWorkerError });

const ok = { ok: z.literal(true), protocol: z.number() };

export const ZProblem = z.object({ kind: z.string(), jobId: z.string().nullable(), path: z.string(), message: z.string() });
export const ZPythonInfo = z.object({
  candidate: z.string(),
  path: z.string().nullable(),
  version: z.string().nullable(),
  canCreateVenv: z.boolean(),
  problem: z.string().nullable(),
  fix: z.string().nullable(),
});
export const ZGpuInfo = z.object({ index: z.number().int(), uuid: z.string(), name: z.string(), memoryTotalBytes: z.number(), memoryFreeBytes: z.number() });
export const ZRecipeInfo = z.object({
  name: z.string(),
  version: z.string(),
  description: z.string(),
  module: z.string(),
  dir: z.string(),
  jobs: z.array(z.string()),
  environmentId: z.string().nullable(),
  environmentReady: z.boolean(),
});
export const ZEnvironmentInfo = z.object({
  environmentId: z.string(),
  recipe: z.string().nullable(),
  pythonVersion: z.string().nullable(),
  createdAt: z.string().nullable(),
  path: z.string(),
});
export const ZProbeResponse = z.object({
  ...ok,
  workerId: z.string(),
  version: z.string(),
  workerProtocol: z.number(),
  machineId: z.string().nullable(),
  bootId: z.string().nullable(),
  hostname: z.string(),
  platform: z.string(),
  home: z.string(),
  trainingDir: z.string(),
  envsDir: z.string(),
  cpus: z.number(),
  ramBytes: z.number(),
  diskFreeBytes: z.number().nullable(),
  capacity: z.object({ cpus: z.number(), ramGb: z.number(), gpus: z.number() }),
  gpus: z.array(ZGpuInfo),
  gpuProblem: z.string().nullable(),
  pythons: z.array(ZPythonInfo),
  chosenPython: z.string().nullable(),
  environments: z.array(ZEnvironmentInfo),
  recipes: z.array(ZRecipeInfo),
  problems: z.array(ZProblem),
  /** A Slurm computer's cluster (null for a worker that runs its jobs itself). */
  slurm: ZSlurmProbe.nullable().default(null),
});

export const ZPrepareResponse = z.object({
  ...ok,
  ready: z.boolean(),
  environmentId: z.string(),
  path: z.string(),
  jobId: z.string().nullable(),
  receipt: ZReceipt.nullable(),
});
export const ZPutResponse = z.object({
  ...ok,
  complete: z.boolean(),
  offset: z.number().int(),
  sha256: z.string(),
  bytes: z.number().int(),
  path: z.string().nullable(),
});
export const ZReceiptResponse = z.object({ ...ok, receipt: ZReceipt });
export const ZSubmitResponse = z.object({ ...ok, receipt: ZReceipt, created: z.boolean() });
export const ZListResponse = z.object({ ...ok, receipts: z.array(ZReceipt), problems: z.array(ZProblem) });
export const ZLogsResponse = z.object({
  ...ok,
  data: z.string(),
  offset: z.number().int(),
  nextOffset: z.number().int(),
  eof: z.boolean(),
  size: z.number().int(),
  /** Bytes the log cap dropped (after the kept first part); offsets stay stable. */
  droppedBytes: z.number().int(),
  truncatedBefore: z.number().int().optional(),
});
export const ZManifestEntry = z.object({ path: z.string(), bytes: z.number().int(), sha256: z.string() });
export const ZArtifactsResponse = z.object({ ...ok, jobId: z.string(), outputDir: z.string(), outputSha256: z.string(), files: z.array(ZManifestEntry) });
export const ZFetchResponse = z.object({ ...ok, path: z.string(), sha256: z.string(), bytes: z.number().int() });
export const ZPeekResponse = z.object({
  ...ok,
  path: z.string(),
  bytes: z.number().int(),
  /** When the file last changed (ms since the epoch): with `bytes`, how a schedule sees that a file is still being written. */
  mtimeMs: z.number().optional(),
  lines: z.array(z.string()),
  truncated: z.boolean(),
});
export const ZImportResponse = z.object({ ...ok, receipt: ZReceipt, created: z.boolean() });
/** What a succeeded import job stored: `report.import` of its receipt. */
export const ZImportResult = z.object({ sha256: z.string().regex(/^[0-9a-f]{64}$/), bytes: z.number().int().nonnegative(), path: z.string() });
/** An import job's report.json (written by the supervisor; there is no recipe). */
export const ZImportReport = z.object({
  status: z.enum(["completed", "failed"]),
  error: z.object({ code: ZErrorCode, message: z.string() }).nullable(),
  import: ZImportResult.nullable(),
});
/** One progress line of an import job's events.jsonl. */
export const ZImportProgressEvent = z.object({ t: z.string(), type: z.literal("progress"), bytes: z.number().int(), totalBytes: z.number().int() });
export type TImportResult = z.infer<typeof ZImportResult>;
export type TImportReport = z.infer<typeof ZImportReport>;

/** The import report of a finished import job's receipt, or null (not an import, or none). */
export function importReportOf(receipt: { kind: string; report: unknown }): TImportReport | null {
  if (receipt.kind !== "import") return null;
  const parsed = ZImportReport.safeParse(receipt.report);
  return parsed.success ? parsed.data : null;
}
export const ZGcResponse = z.object({
  ...ok,
  dryRun: z.boolean(),
  jobs: z.array(z.string()),
  incoming: z.array(z.string()),
  blobs: z.array(z.string()),
  freedBytes: z.number().int(),
  /** For a request naming `blobs`: each one removed, absent already, or kept because an active job reads it. */
  named: z.array(z.object({ sha256: z.string(), outcome: z.enum(["removed", "absent", "in_use"]) })).optional(),
});

export const RESPONSE_SCHEMAS = {
  probe: ZProbeResponse,
  prepare: ZPrepareResponse,
  put: ZPutResponse,
  submit: ZSubmitResponse,
  inspect: ZReceiptResponse,
  list: ZListResponse,
  logs: ZLogsResponse,
  cancel: ZReceiptResponse,
  artifacts: ZArtifactsResponse,
  fetch: ZFetchResponse,
  peek: ZPeekResponse,
  import: ZImportResponse,
  gc: ZGcResponse,
} as const;

export type TProbeResponse = z.infer<typeof ZProbeResponse>;
export type TPrepareResponse = z.infer<typeof ZPrepareResponse>;
export type TPutResponse = z.infer<typeof ZPutResponse>;
export type TSubmitResponse = z.infer<typeof ZSubmitResponse>;
export type TReceiptResponse = z.infer<typeof ZReceiptResponse>;
export type TListResponse = z.infer<typeof ZListResponse>;
export type TLogsResponse = z.infer<typeof ZLogsResponse>;
export type TArtifactsResponse = z.infer<typeof ZArtifactsResponse>;
export type TFetchResponse = z.infer<typeof ZFetchResponse>;
export type TPeekResponse = z.infer<typeof ZPeekResponse>;
export type TImportResponse = z.infer<typeof ZImportResponse>;
export type TGcResponse = z.infer<typeof ZGcResponse>;
export type TErrorResponse = z.infer<typeof ZErrorResponse>;
export type TProblem = z.infer<typeof ZProblem>;
export type TManifestEntry = z.infer<typeof ZManifestEntry>;

/**
 * Parse a worker's stdout JSON for `op`: the op's success shape or the typed error.
 * The controller calls this on every answer, so a worker that drifts from the schema
 * is an error at the boundary, not a surprise later.
 */
export function parseWorkerResponse<Op extends keyof typeof RESPONSE_SCHEMAS>(
  op: Op,
  value: unknown,
): z.infer<(typeof RESPONSE_SCHEMAS)[Op]> | TErrorResponse {
  const isError = typeof value === "object" && value !== null && (value as { ok?: unknown }).ok === false;
  return isError ? ZErrorResponse.parse(value) : (RESPONSE_SCHEMAS[op].parse(value) as z.infer<(typeof RESPONSE_SCHEMAS)[Op]>);
}
