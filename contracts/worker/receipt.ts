// The job receipt: the worker's durable record of one job (what `inspect` returns).
import { z } from "zod";
import { ZJobReason, ZJobState } from "./states";
import { ZResources } from "./requests";
import { ZSlurmArrayMember, ZSlurmAttempt, ZSlurmJobRecord } from "./slurm";

const ZIso = z.string();
/** A process identified beyond its pid: pid reuse and reboots cannot be confused with it. */
export const ZProcessIdentity = z.object({ pid: z.number().int(), startTime: z.number(), bootId: z.string() });
export type TProcessIdentity = z.infer<typeof ZProcessIdentity>;

export const ZUsage = z.object({
  wallSeconds: z.number().nullable(),
  cpuSeconds: z.number().nullable(),
  peakRssBytes: z.number().nullable(),
  /** Proportional set size: a job forked from a warm runner shares its imported pages, which RSS counts whole. */
  peakPssBytes: z.number().nullable().default(null),
  outputBytes: z.number().nullable(),
});

export const ZReservation = z.object({
  cpus: z.number(),
  ramGb: z.number(),
  /** GPU UUIDs held exclusively. */
  gpuIds: z.array(z.string()),
  /** GPU shared by memory: which GPU and how much. */
  gpuShare: z.object({ gpuId: z.string(), memoryGb: z.number() }).nullable(),
});
export type TReservation = z.infer<typeof ZReservation>;

/**
 * Why a queued job waits, typed (the ledger's fit, worker/src/ledger.ts): the resource it
 * lacks and which admitted, running or unknown jobs hold it. `queuedReason` keeps the same
 * in words for old readers; nobody parses those words.
 * - `cpus`: CPU slots; `ram`: GB of RAM; `needs`, `reserved` and `capacity` in those units.
 * - `gpus`: whole GPUs; `reserved` = GPUs held (whole or shared), `capacity` = GPUs there.
 * - `gpu_memory`: GB on one GPU; `reserved` and `capacity` are of the GPU with the most
 *   room, `capacity` null when the worker cannot read that GPU's memory.
 * `holders` are worker job ids, in the order the ledger admitted them.
 */
export const ZWaitingFor = z.object({
  resource: z.enum(["cpus", "ram", "gpus", "gpu_memory"]),
  needs: z.number(),
  reserved: z.number(),
  capacity: z.number().nullable(),
  holders: z.array(z.string()),
});
export type TWaitingFor = z.infer<typeof ZWaitingFor>;

export const ZReceipt = z.object({
  jobId: z.string(),
  opId: z.string(),
  intentHash: z.string(),
  /** `run` = a recipe job; `prepare` = building a recipe environment; `import` = copying a file from an allowed root into the store. */
  kind: z.enum(["run", "prepare", "import"]),
  recipe: z.string(),
  job: z.string(),
  environmentId: z.string(),
  state: ZJobState,
  reason: ZJobReason.nullable(),
  /** Why a queued job waits (resources, disk). */
  queuedReason: z.string().nullable(),
  /** The same, typed, when the job waits for a resource (null otherwise and in receipts written before it existed). */
  waitingFor: ZWaitingFor.nullable().default(null),
  /** Human-readable detail of the reason (e.g. manifest problem). */
  detail: z.string().nullable(),
  exitCode: z.number().int().nullable(),
  signal: z.string().nullable(),
  priority: z.number().int(),
  /** Admission order among queued jobs (FIFO within a priority). */
  seq: z.number().int(),
  resources: ZResources,
  reservation: ZReservation.nullable(),
  reservationReleasedAt: ZIso.nullable(),
  createdAt: ZIso,
  admittedAt: ZIso.nullable(),
  startedAt: ZIso.nullable(),
  endedAt: ZIso.nullable(),
  deadlineSeconds: z.number(),
  deadlineAt: ZIso.nullable(),
  graceSeconds: z.number(),
  cancelRequestedAt: ZIso.nullable(),
  bootId: z.string(),
  supervisor: ZProcessIdentity.nullable(),
  /** The recipe's process (its pid is also its process group id). */
  recipeProcess: ZProcessIdentity.nullable(),
  /** How the recipe started: forked from a warm runner, or a fresh interpreter (docs/dev/warm-start.md). */
  launch: z.enum(["warm", "cold"]).nullable().default(null),
  /** The job array it goes to Slurm in, when its submitter asked for one (a search's round of trials). */
  slurmArray: ZSlurmArrayMember.nullable().default(null),
  /** The Slurm job that runs it, on a Slurm computer (null elsewhere, and before sbatch answered). */
  slurm: ZSlurmJobRecord.nullable().default(null),
  /** Earlier attempts of this job on a Slurm computer: stopped at a time limit, or preempted, and continued (empty elsewhere). */
  slurmAttempts: z.array(ZSlurmAttempt).default([]),
  /** sbatch did not reach Slurm's controller for this admitted job: it is sent again once the controller answers. */
  slurmRetry: z.object({ error: z.string(), at: ZIso }).nullable().default(null),
  usage: ZUsage,
  report: z.unknown().nullable(),
  outputSha256: z.string().nullable(),
  logBytes: z.number().int(),
  logDroppedBytes: z.number().int(),
  eventsBytes: z.number().int(),
  /** What this job's input resolved (refs.ts): store hashes / job output hashes, and `checkpoints:<jobId>`; kept from gc while active. */
  inputRefs: z.array(z.string()),
  jobDir: z.string(),
  gcAt: ZIso.nullable(),
});
export type TReceipt = z.infer<typeof ZReceipt>;
