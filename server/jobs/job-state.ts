/**
 * Controller job lifecycle (DESIGN "Job lifecycle"): one allowed-transition table,
 * the predicates, and the ONLY function that changes Job.state. Each change appends a
 * JobTransition row (from, to, reason) in the same transaction and publishes
 * `job.changed` after it commits.
 *
 * The controller records what it observes of the worker's receipt, so forward skips are
 * allowed (a job seen `queued` may next be seen `succeeded`); the worker's events.jsonl
 * keeps the fine-grained trail. `unknown` is not terminal: it moves to whatever the
 * worker confirms once it answers (including back to an active state). Terminal
 * states never change again.
 */
import { controllerJobLifecycle as jobs, JOB_STATES, type JobState } from "@/contracts/lifecycles";
import type { Db } from "@/server/db/client";
import { publish } from "@/server/events/bus";
import { transition as move, type LifecycleStore } from "@/server/lifecycle/transition";

export { JOB_STATES, type JobState };

export const TERMINAL: readonly JobState[] = jobs.terminal;
export const ALLOWED_TRANSITIONS = jobs.transitions;

export const isJobState = (s: string): s is JobState => jobs.isState(s);
export const isTerminal = (state: string): boolean => jobs.isTerminal(state);
/** Active = holds (or may hold) a reservation on its computer; `unknown` included. */
export const isActive = (state: string): boolean => jobs.isActive(state);
export const canTransition = (from: string, to: JobState): boolean => jobs.canMove(from, to);

export const ACTIVE_STATES: JobState[] = [...jobs.active];

/** Fields that may change together with the state. */
export interface JobPatch {
  detail?: string | null;
  queuedReason?: string | null;
  /** JSON ZWaitingFor, as the worker's receipt says it. */
  waitingFor?: string | null;
  workerJobId?: string;
  /** JSON ZJobSlurm, from the receipt of a job on a Slurm computer. */
  slurm?: string | null;
  startedAt?: Date | null;
  endedAt?: Date | null;
  unreachableSince?: Date | null;
  lastContactAt?: Date | null;
  usage?: string | null;
  report?: string | null;
  outputSha256?: string | null;
}

export interface TransitionResult {
  changed: boolean;
  from: string;
  to: JobState;
}

/** The Job row as a lifecycle store; `seen` keeps the experiment it read, for the event. */
const jobStore = (seen: { experimentId: string | null }): LifecycleStore<JobState, JobPatch> => ({
  lifecycle: jobs,
  read: async (tx, id) => {
    const job = await tx.job.findUnique({ where: { id }, select: { state: true, experimentId: true } });
    seen.experimentId = job?.experimentId ?? null;
    return job?.state ?? null;
  },
  write: async (tx, id, { from, to, reason, at }, patch) => {
    const ending = isTerminal(to) ? { endedAt: patch.endedAt ?? at } : {};
    return (await tx.job.updateMany({ where: { id, state: from }, data: { ...patch, ...ending, state: to, reason } })).count;
  },
  record: async (tx, jobId, { from, to, reason, at }) => void (await tx.jobTransition.create({ data: { jobId, from, to, reason, at } })),
});

/**
 * Moves job `jobId` to `to` when the table allows it from its current state. The update
 * is conditional on the state it read, so two writers racing (the reconcile loop and a
 * request) cannot both apply a change: the loser gets `changed: false`. A move the table
 * does not allow also answers `changed: false`: the controller reports what it observed,
 * and a late observation (a receipt older than the state recorded) must change nothing.
 */
export async function transition(
  db: Db,
  jobId: string,
  to: JobState,
  reason: string | null,
  patch: JobPatch = {},
): Promise<TransitionResult> {
  const seen = { experimentId: null as string | null };
  const result = await move(db, jobStore(seen), jobId, to, { reason, patch, illegal: "ignore" });
  if (result.changed) publish({ type: "job.changed", jobId, state: to, experimentId: seen.experimentId });
  return result;
}
