/**
 * The resident serving process's protocol (issue 16): HTTP/1.1 over a private Unix socket
 * (mode 0600, in a 0700 folder of the worker's home). The controller reaches it directly on
 * This computer and through the SSH connection's stream-local forwarding on a server, so no
 * TCP port is ever opened. One home for these shapes: the Python server
 * (training/serving) writes them, the controller reads them only through these schemas.
 *
 * Routes of the serving process (not the public ones, which are /api/deployments/:id/...):
 *   GET  /health   -> ZServingHealth
 *   POST /predict  ZServePredictRequest  -> ZServePredictResponse   (tabular)
 *   POST /generate ZServeGenerateRequest -> ZServeGenerateResponse  (llm)
 *   POST /stream   ZServeGenerateRequest -> text/event-stream of ZServeStreamEvent (llm)
 * Any refusal: a 4xx/5xx status with ZServingError as the body (429 carries Retry-After).
 * Status by code: bad_input 400, wrong_kind 404 (also an unknown route), too_large 413,
 * overloaded 429, internal 500, not_ready 503 (Retry-After: 1), deadline 504.
 *
 * Starting one (training/serving, docs/deployments.md): a worker `submit` of recipe
 * `serve-tabular` or `serve-llm`, job `serve`, in the environment of the tabular / llm-lora
 * recipe (same requirements file, so the same environment id), input ZServeJobInput,
 * deadlineSeconds = the absolute lifetime, resources.ramGb = the memory budget (the
 * supervisor stops the process group above it: failed / out_of_memory), cancel = stop. The
 * socket is servingSocketPath(<worker home>, jobId); the job's events say
 * `{"type":"serving","state":"loading"|"ready","socket",...}` once it listens / has loaded,
 * and `"unloaded"` (reason "idle") before it ends after idleUnloadSeconds without a request
 * (the job then succeeds). One that ends otherwise (kill -9, crash) is an ordinary terminal receipt.
 */
import { z } from "zod";
import { deploymentLifecycle } from "../lifecycles/registry";

export const SERVING_PROTOCOL = 1 as const;

/** Longest socket path Linux accepts in sockaddr_un (108 bytes with the terminating NUL). */
export const MAX_SOCKET_PATH_BYTES = 107;

export const ZServingKind = z.enum(["tabular", "llm"]);
export type ServingKind = z.infer<typeof ZServingKind>;

/** The worker recipe (job SERVE_JOB) that serves a release of each kind (training/serving/<kind>). */
export const SERVE_RECIPE = { tabular: "serve-tabular", llm: "serve-llm" } as const satisfies Record<ServingKind, string>;
export const SERVE_JOB = "serve";

/**
 * Where the serving process of worker job `jobId` listens (the supervisor passes it in; the
 * controller computes the same path to connect). Normally `<worker home>/run/<job>/serve.sock`;
 * a worker home too deep for sockaddr_un (CI's nested scratch folders reached 108 bytes) gets a
 * per-job folder under /tmp instead, named from a hash of the home so two homes never share one.
 * The serving process makes that folder 0700 and refuses one it does not own.
 */
export function servingSocketPath(workerHome: string, jobId: string): string {
  const home = workerHome.replace(/\/+$/, "");
  const natural = `${home}/run/${jobId}/serve.sock`;
  if (utf8Bytes(natural) <= MAX_SOCKET_PATH_BYTES) return natural;
  return `/tmp/trainyard-${fnv1a32(home)}-${jobId}/serve.sock`;
}

function utf8Bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** A short, stable name for a path (not a security boundary: the folder's owner check is). */
function fnv1a32(text: string): string {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, "0");
}

/** Caps enforced by the serving process itself (the controller checks them first, too). */
export const ZServingLimits = z.strictObject({
  maxRows: z.number().int().positive().max(100_000).default(1000),
  maxRequestBytes: z.number().int().positive().max(64 * 1024 * 1024).default(4 * 1024 * 1024),
  maxPromptTokens: z.number().int().positive().max(131_072).default(2048),
  maxNewTokens: z.number().int().positive().max(8192).default(256),
  requestDeadlineSeconds: z.number().positive().max(3600).default(60),
  /** Requests computed at once; more wait in a queue of maxQueue, beyond it 429. */
  concurrency: z.number().int().positive().max(64).default(1),
  maxQueue: z.number().int().nonnegative().max(1024).default(16),
});
export type ServingLimits = z.infer<typeof ZServingLimits>;

export const ZServingHealth = z.strictObject({
  protocol: z.literal(SERVING_PROTOCOL),
  state: z.enum(["loading", "ready"]),
  kind: ZServingKind,
  /** The release this process serves (the controller's release id). */
  release: z.string().min(1),
  pid: z.number().int().positive(),
  uptimeSeconds: z.number().nonnegative(),
  /** Requests now computing and waiting. */
  inFlight: z.number().int().nonnegative(),
  queued: z.number().int().nonnegative(),
});
export type ServingHealth = z.infer<typeof ZServingHealth>;

/** One input row: column name -> value, as JSON carries it. */
export const ZServeRow = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]));
export const ZServePredictRequest = z.strictObject({ rows: z.array(ZServeRow).min(1) });
export const ZServePrediction = z.strictObject({
  prediction: z.union([z.string(), z.number(), z.boolean()]),
  /** Class -> probability, classification only. */
  probabilities: z.record(z.string(), z.number()).optional(),
});
export const ZServePredictResponse = z.strictObject({
  predictions: z.array(ZServePrediction),
  release: z.string().min(1),
});
export type ServePredictResponse = z.infer<typeof ZServePredictResponse>;

export const ZChatMessage = z.strictObject({ role: z.enum(["system", "user", "assistant"]), content: z.string() });

/**
 * How a generation picks its tokens (training/serving/sampling.py), optional: no temperature
 * (or 0) is greedy, the answer the export's generate.py gives; above 0 it samples, from the
 * tokens holding `topP` of the probability, with a generator of the request's own seeded by
 * `seed` (the same seed and request give the same text). The text ends before the first of
 * the `stop` strings (finishReason "stop"). Safe integers only: JSON carries no more exactly.
 */
export const MAX_STOP_SEQUENCES = 4;
export const SAMPLING_FIELDS = {
  temperature: z.number().min(0).max(2).optional().describe("0 (or absent): greedy; up to 2: sample, more random as it grows"),
  topP: z.number().min(0).max(1).optional().describe("Sample only from the likeliest tokens holding this much probability (1 or absent: all)"),
  seed: z.number().int().optional().describe("Seed of a sampled generation: the same seed and request give the same text"),
  stop: z.array(z.string().min(1)).max(MAX_STOP_SEQUENCES).optional().describe("The text ends before the first of these (finishReason stop)"),
};
export const ZServeGenerateRequest = z.union([
  z.strictObject({ prompt: z.string().min(1), maxNewTokens: z.number().int().positive().optional(), ...SAMPLING_FIELDS }),
  z.strictObject({ messages: z.array(ZChatMessage).min(1), maxNewTokens: z.number().int().positive().optional(), ...SAMPLING_FIELDS }),
]);
export type ServeGenerateRequest = z.infer<typeof ZServeGenerateRequest>;
export const ZServeGenerateResponse = z.strictObject({
  text: z.string(),
  promptTokens: z.number().int().nonnegative(),
  generatedTokens: z.number().int().nonnegative(),
  finishReason: z.enum(["stop", "length", "deadline"]),
  release: z.string().min(1),
});

/** One SSE event of /stream: `event: <type>` and `data: <json of the rest>`. */
export const ZServeStreamEvent = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("metadata"), release: z.string().min(1), model: z.string() }),
  /** Whole characters only: a UTF-8 sequence split across tokens is held until complete. */
  z.strictObject({ type: z.literal("delta"), text: z.string() }),
  z.strictObject({ type: z.literal("heartbeat") }),
  z.strictObject({
    type: z.literal("result"),
    promptTokens: z.number().int().nonnegative(),
    generatedTokens: z.number().int().nonnegative(),
    finishReason: z.enum(["stop", "length", "deadline"]),
  }),
  z.strictObject({ type: z.literal("error"), code: z.string(), message: z.string() }),
]);
export type ServeStreamEvent = z.infer<typeof ZServeStreamEvent>;

export const SERVING_ERROR_CODES = ["bad_input", "too_large", "not_ready", "overloaded", "deadline", "wrong_kind", "internal"] as const;
export const ZServingError = z.strictObject({
  error: z.strictObject({
    code: z.enum(SERVING_ERROR_CODES),
    message: z.string(),
    /** Field-level problems of a bad input: `rows[3].bill_length_mm` -> what is wrong. */
    fields: z.array(z.strictObject({ path: z.string(), message: z.string() })).optional(),
  }),
});
export type ServingError = z.infer<typeof ZServingError>;

/** The input of a serving job (recipes serve-tabular / serve-llm, job serve). */
export const ZServeJobInput = z.strictObject({
  /** The controller's release id, echoed in every answer. */
  release: z.string().min(1),
  /** The release's export archive: `sha256:<export.tar.gz blob>` or an export job's output. */
  export: z.string().min(1),
  /** llm only: the import_base output (or model folder) the adapter was trained on. */
  base: z.string().min(1).optional(),
  limits: ZServingLimits.partial().optional(),
  heartbeatSeconds: z.number().min(0.05).max(300).optional(),
  device: z.enum(["cpu", "cuda", "mps"]).optional(),
  /** Unload (the process ends, the job succeeds) after this long without a request; default never. */
  idleUnloadSeconds: z.number().positive().max(30 * 24 * 3600).optional(),
  /** Override of the socket path (tests); default servingSocketPath. */
  socket: z.string().min(1).optional(),
});
export type ServeJobInput = z.infer<typeof ZServeJobInput>;

/**
 * The public LLM routes (POST /api/deployments/:id/generate and /stream), as a client sees
 * them: the serving process's shapes with the release named the way /predict names it.
 */
export const ZDeploymentRelease = z.strictObject({ id: z.string().min(1), number: z.number().int().positive(), version: z.number().int().nonnegative() });

/** A prompt (one user message) or chat messages, never both; maxNewTokens capped by the deployment; optional sampling (SAMPLING_FIELDS). */
export const ZDeploymentGenerateRequest = z
  .strictObject({
    prompt: z.string().min(1).optional(),
    messages: z.array(ZChatMessage).min(1).optional(),
    maxNewTokens: z.number().int().positive().optional(),
    ...SAMPLING_FIELDS,
  })
  .refine((b) => (b.prompt === undefined) !== (b.messages === undefined), { message: "send either prompt or messages (one of them)", path: ["prompt"] });
export type DeploymentGenerateRequest = z.infer<typeof ZDeploymentGenerateRequest>;

const ZFinish = ZServeGenerateResponse.shape.finishReason;

export const ZDeploymentGenerateResponse = ZServeGenerateResponse.extend({ release: ZDeploymentRelease });
export type DeploymentGenerateResponse = z.infer<typeof ZDeploymentGenerateResponse>;

/**
 * One SSE event of the public /stream: a metadata event first, deltas (whole characters)
 * and heartbeats, then exactly one `result` (whose text is the deltas joined) or `error`.
 */
export const ZDeploymentStreamEvent = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("metadata"), release: ZDeploymentRelease, model: z.string() }),
  z.strictObject({ type: z.literal("delta"), text: z.string() }),
  z.strictObject({ type: z.literal("heartbeat") }),
  z.strictObject({
    type: z.literal("result"),
    text: z.string(),
    promptTokens: z.number().int().nonnegative(),
    generatedTokens: z.number().int().nonnegative(),
    finishReason: ZFinish,
  }),
  z.strictObject({ type: z.literal("error"), code: z.string(), message: z.string() }),
]);
export type DeploymentStreamEvent = z.infer<typeof ZDeploymentStreamEvent>;

/** How a deployment serves: a long-lived serving process, or one short predict job per request. */
export const DEPLOYMENT_MODES = ["resident", "on_demand"] as const;
export const ZDeploymentMode = z.enum(DEPLOYMENT_MODES);
export type DeploymentMode = z.infer<typeof ZDeploymentMode>;

/** The answer of POST /api/deployments/:id/predict: one prediction per row, in order, and the release that answered. */
export const ZDeploymentPredictResponse = z.strictObject({
  predictions: z.array(ZServePrediction).describe("One per row, in order"),
  release: ZDeploymentRelease,
});
export type DeploymentPredictResponse = z.infer<typeof ZDeploymentPredictResponse>;

/**
 * The answer of GET /api/deployments/:id/health. `unreachable` is not a lifecycle state: a
 * ready (or switching) resident deployment whose SSH computer its requests cannot reach says
 * it (503, reason why) until its serving process answers again.
 */
export const ZDeploymentHealth = z.strictObject({
  state: z.enum([...deploymentLifecycle.states, "unreachable"]),
  /** Why it is in its state (a failure, an automatic restart), in words. */
  reason: z.string().nullable(),
  mode: ZDeploymentMode,
  release: ZDeploymentRelease.nullable(),
  uptimeSeconds: z.number().nonnegative().nullable().describe("Seconds since it last became ready; null unless ready"),
  serving: z
    .strictObject({ inFlight: z.number().int().nonnegative(), queued: z.number().int().nonnegative() })
    .nullable()
    .describe("A ready resident release: requests its serving process computes now and has queued; null otherwise, or when it does not answer within a second"),
});
export type DeploymentHealth = z.infer<typeof ZDeploymentHealth>;

/** Any refusal of a deployment's public routes (the server's error envelope), with its status. */
export const ZDeploymentRefusal = z.strictObject({
  error: z.string().describe("What was refused and why, in words"),
  code: z.string().describe("bad_input, too_many_rows, too_large, not_ready, deployment_key_refused, …"),
  details: z.looseObject({ fields: ZServingError.shape.error.shape.fields }).nullable(),
});
export type DeploymentRefusal = z.infer<typeof ZDeploymentRefusal>;
