// A worker whose jobs run through Slurm (issue 33): the settings in its config.json, what
// its probe reports of the cluster, and what a receipt records of the Slurm job that ran it.
// Written by the controller (settings), read by the worker; the same schema on both sides.
import { z } from "zod";

/** Slurm names: partitions, accounts and QoS are plain words (they reach sbatch as argv). */
export const ZSlurmName = z.string().regex(/^[A-Za-z0-9_.+-]{1,64}$/, "letters, digits and _ . + - only");

export const ZSlurmSettings = z
  .object({
    partition: ZSlurmName,
    account: ZSlurmName.nullable().default(null),
    qos: ZSlurmName.nullable().default(null),
    /** slurm.conf of the cluster; null: Slurm's own default (its SLURM_CONF or /etc/slurm). */
    slurmConf: z.string().startsWith("/").nullable().default(null),
  })
  .strict();
export type TSlurmSettings = z.infer<typeof ZSlurmSettings>;

export const ZSlurmPartition = z.object({
  name: z.string(),
  /** Slurm's availability word: up, down, drain, inact. */
  state: z.string(),
  nodes: z.number().int(),
  /** CPUs and memory (MiB) of one node, as sinfo reports them. */
  cpusPerNode: z.number().int().nullable(),
  memoryMibPerNode: z.number().int().nullable(),
  /** CPUs no job holds now, over all its nodes (sinfo's %C; null when not reported). */
  idleCpus: z.number().int().nullable().default(null),
  /** GRES of its nodes, e.g. "gpu:2" (null: none). */
  gres: z.string().nullable(),
  nodeNames: z.string(),
});

/** Whether a job on a compute node saw the worker's home (a tiny probe job at enrolment). */
export const ZSharedHomeCheck = z.object({
  visible: z.boolean(),
  /** The node the probe job ran on. */
  node: z.string().nullable(),
  detail: z.string().nullable(),
});

export const ZSlurmProbe = z.object({
  /** "22.05.8"; null when Slurm's commands are not installed. */
  version: z.string().nullable(),
  /** Whether slurmctld answered. */
  controllerUp: z.boolean(),
  partition: z.string(),
  partitions: z.array(ZSlurmPartition),
  sharedHome: ZSharedHomeCheck.nullable(),
  /** Jobs waiting in the partition's queue (anyone's); null when Slurm did not say. */
  pendingJobs: z.number().int().nullable().default(null),
  /** What is wrong, in words (controller down, partition missing); null when nothing is. */
  problem: z.string().nullable(),
});
export type TSlurmProbe = z.infer<typeof ZSlurmProbe>;

/**
 * A job that goes to Slurm as one task of a job array (issue 33: a search's round of
 * independent trials). The worker gathers the `size` jobs of `group` and hands them to one
 * `sbatch --array=…%limit`, task `index` running this job; elsewhere the field is ignored.
 * Jobs of a group that do not all arrive in time go as the tasks that did (ledger.ts).
 */
export const ZSlurmArrayMember = z.strictObject({
  group: z.string().regex(/^[A-Za-z0-9_.:-]{1,120}$/),
  size: z.int().min(1).max(1000),
  limit: z.int().min(1).max(1000),
  index: z.int().min(0).max(999),
}).refine((m) => m.index < m.size, "index is below size");
export type TSlurmArrayMember = z.infer<typeof ZSlurmArrayMember>;

/** A Slurm job id as squeue prints it: "123", or an array's task "123_4". */
export const SLURM_JOB_ID = /^\d+(?:_\d+)?$/;

/** The Slurm job that runs a worker job: its id, where it was sent, and the `--array` it was a task of (absent: a job of its own). */
export const ZSlurmJobRecord = z.object({ jobId: z.string(), partition: z.string(), submittedAt: z.string(), array: z.string().optional() });
export type TSlurmJobRecord = z.infer<typeof ZSlurmJobRecord>;

/**
 * An attempt of a job on a Slurm computer that ended before the job did. `time_limit`:
 * Slurm's time limit came (SIGUSR1 90 s before it), the recipe was stopped (a recipe that
 * checkpoints saved one) and the job went on as a new Slurm job. `preempted`: Slurm stopped
 * the job (SIGTERM: preemption, a requeue, a node's failure) and started the same Slurm job
 * again (`--requeue`); `startedAt` is null when its supervisor was killed before it could
 * record the attempt, and the next one recorded it. The job's receipt keeps them in order.
 */
export const ZSlurmAttemptReason = z.enum(["time_limit", "preempted"]);
export type TSlurmAttemptReason = z.infer<typeof ZSlurmAttemptReason>;
export const ZSlurmAttempt = z.object({
  slurmJobId: z.string(),
  startedAt: z.string().nullable(),
  endedAt: z.string(),
  reason: ZSlurmAttemptReason,
});
export type TSlurmAttempt = z.infer<typeof ZSlurmAttempt>;

/** What the controller keeps of a job's Slurm jobs (Job.slurm): the current one and the attempts before it. */
export const ZJobSlurm = ZSlurmJobRecord.extend({ attempts: z.array(ZSlurmAttempt) });
export type TJobSlurm = z.infer<typeof ZJobSlurm>;
