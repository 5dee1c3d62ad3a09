import { z } from "zod";
import { JOB_STATES, ZSlurmArrayMember, type TJobSlurm, type TWaitingFor } from "@/contracts/worker";

const MAX_DEADLINE_S = 30 * 24 * 3600;

export const ZJobResources = z.strictObject({
  cpus: z.number().positive().max(1024).default(1),
  ramGb: z.number().nonnegative().max(65536).default(1),
  gpus: z.number().int().nonnegative().max(64).optional(),
  gpuMemoryGb: z.number().positive().max(4096).optional(),
});

export const ZAdmitJobInput = z.strictObject({
  /** Client-generated operation id: repeating it returns the first job. */
  opId: z.string().min(8, "opId needs at least 8 characters").max(200),
  targetId: z.string().min(1).max(64),
  recipe: z.string().min(1).max(100),
  job: z.string().min(1).max(100),
  input: z.record(z.string(), z.unknown()).default({}),
  resources: ZJobResources.default({ cpus: 1, ramGb: 1 }),
  priority: z.number().int().min(-1000).max(1000).default(0),
  deadlineSeconds: z.number().int().positive().max(MAX_DEADLINE_S),
  /** The experiment whose chain this job is a step of (server/experiments). */
  experimentId: z.string().min(1).max(64).optional(),
  step: z.string().min(1).max(40).optional(),
  /** On a Slurm computer: the job goes as a task of this job array (a search's round of trials). */
  slurmArray: ZSlurmArrayMember.optional(),
});
export type TAdmitJobInput = z.input<typeof ZAdmitJobInput>;

export const ZJobIdInput = z.strictObject({ id: z.string().min(1).max(64) });

export const ZListJobsInput = z
  .strictObject({
    targetId: z.string().min(1).max(64).optional(),
    states: z.array(z.enum(JOB_STATES)).max(JOB_STATES.length).optional(),
    limit: z.number().int().positive().max(500).default(100),
  })
  .default({ limit: 100 });
export type TListJobsInput = z.infer<typeof ZListJobsInput>;

export const MAX_LOG_READ_BYTES = 64 * 1024;
export const ZJobLogsInput = z.strictObject({
  id: z.string().min(1).max(64),
  stream: z.enum(["log", "events"]).default("log"),
  offset: z.number().int().nonnegative().default(0),
  maxBytes: z.number().int().positive().max(MAX_LOG_READ_BYTES).default(MAX_LOG_READ_BYTES),
});
export type TJobLogsInput = z.infer<typeof ZJobLogsInput>;

export const ZPrepareRecipeInput = z.strictObject({
  targetId: z.string().min(1).max(64),
  recipe: z.string().min(1).max(100),
});

/** The columns a job row and its view carry unchanged; the row (jobs.repository) and the view both extend it. */
export interface JobFields {
  id: string;
  opId: string;
  targetId: string;
  targetRevision: number;
  workerId: string | null;
  recipe: string;
  recipeVersion: string;
  jobName: string;
  environmentId: string;
  state: string;
  reason: string | null;
  detail: string | null;
  queuedReason: string | null;
  workerJobId: string | null;
  priority: number;
  deadlineSeconds: number;
  outputSha256: string | null;
}

export interface JobView extends JobFields {
  targetName: string;
  /** What a queued job waits for, typed, as its worker said (contracts/worker ZWaitingFor); null otherwise. */
  waitingFor: TWaitingFor | null;
  /** On a Slurm computer: its Slurm job, and the earlier ones stopped at a time limit. */
  slurm: TJobSlurm | null;
  /**
   * Why a queued job has not started, in words for people (waiting-words.ts): which job
   * holds what it needs, else the worker's or the controller's words; null unless queued.
   */
  waiting: string | null;
  resources: unknown;
  usage: unknown;
  cancelRequestedAt: string | null;
  unreachableSince: string | null;
  lastContactAt: string | null;
  createdAt: string;
  startedAt: string | null;
  endedAt: string | null;
}

export interface JobTransitionView {
  from: string;
  to: string;
  reason: string | null;
  at: string;
}

export interface JobDetailView extends JobView {
  input: unknown;
  report: unknown;
  transitions: JobTransitionView[];
}

export interface JobLogChunk {
  data: string;
  offset: number;
  nextOffset: number;
  size: number;
  eof: boolean;
  droppedBytes: number;
}
