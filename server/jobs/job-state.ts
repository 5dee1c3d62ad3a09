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
import { JOB_STATES, type JobState } from "@/contracts/worker";
import type { Db } from "@/server/db/client";
import { publish } from "@/server/events/bus";

export { JOB_STATES, type JobState };

export const TERMINAL: readonly JobState[] = ["succeeded", "failed", "cancelled", "timed_out"];
const ENDINGS = TERMINAL;

export const ALLOWED_TRANSITIONS: Record<JobState, readonly JobState[]> = {
  queued: ["admitted", "running", ...ENDINGS, "unknown"],
  admitted: ["running", ...ENDINGS, "unknown"],
  running: [...ENDINGS, "unknown"],
  unknown: ["queued", "admitted", "running", ...ENDINGS],
  succeeded: [],
  failed: [],
  cancelled: [],
  timed_out: [],
};

export function isJobState(s: string): s is JobState {
  return (JOB_STATES as readonly string[]).includes(s);
}
export function isTerminal(state: string): boolean {
  return (TERMINAL as readonly string[]).includes(state);
}
/** Active = holds (or may hold) a reservation on its computer; `unknown` included. */
export function isActive(state: string): boolean {
  return isJobState(state) && !isTerminal(state);
}
export function canTransition(from: string, to: JobState): boolean {
  return isJobState(from) && ALLOWED_TRANSITIONS[from].includes(to);
}

export const ACTIVE_STATES: JobState[] = JOB_STATES.filter((s) => isActive(s));

/** Fields that may change together with the state. */
export interface JobPatch {
  detail?: string | null;
  queuedReason?: string | null;
  workerJobId?: string;
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

/**
 * Moves job `jobId` to `to` when the table allows it from its current state. The update
 * is conditional on the state it read, so two writers racing (the reconcile loop and a
 * request) cannot both apply a change: the loser gets `changed: false`.
 */
export async function transition(
  db: Db,
  jobId: string,
  to: JobState,
  reason: string | null,
  patch: JobPatch = {},
): Promise<TransitionResult> {
  let experimentId: string | null = null;
  const result = await db.$transaction(async (tx) => {
    const job = await tx.job.findUnique({ where: { id: jobId }, select: { state: true, experimentId: true } });
    if (!job) throw new Error(`transition: job ${jobId} does not exist`);
    const from = job.state;
    experimentId = job.experimentId;
    if (!canTransition(from, to)) return { changed: false, from, to };
    const now = new Date();
    const ending = isTerminal(to) ? { endedAt: patch.endedAt ?? now } : {};
    const { count } = await tx.job.updateMany({
      where: { id: jobId, state: from },
      data: { ...patch, ...ending, state: to, reason },
    });
    if (count === 0) return { changed: false, from, to };
    await tx.jobTransition.create({ data: { jobId, from, to, reason, at: now } });
    return { changed: true, from, to };
  });
  if (result.changed) publish({ type: "job.changed", jobId, state: to, experimentId });
  return result;
}
