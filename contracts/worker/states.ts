// Job states and failure reasons shared by the worker and the app. The states and the
// worker's allowed transitions are its lifecycle table (contracts/lifecycles/job.ts).
import { z } from "zod";
import { JOB_STATES, workerJobLifecycle, type JobState } from "../lifecycles/job";

export { JOB_STATES, type JobState };
export const ZJobState = workerJobLifecycle.schema;

export const TERMINAL_STATES: readonly JobState[] = workerJobLifecycle.terminal;
/** `unknown` is not terminal: it keeps its reservation until the host says what happened. */
export const ACTIVE_STATES: readonly JobState[] = workerJobLifecycle.active;

export function isTerminal(state: JobState): boolean {
  return workerJobLifecycle.isTerminal(state);
}
export function isActive(state: JobState): boolean {
  return !isTerminal(state);
}

/** Why a job ended the way it did (or why it is unknown). */
export const JOB_REASONS = [
  "completed",
  "exit_code",
  "bad_input",
  "manifest_invalid",
  "out_of_memory",
  "disk_full",
  "interrupted",
  "deadline",
  "cancel_requested",
  "launch_failed",
  "environment_missing",
  "supervisor_gone",
] as const;
export const ZJobReason = z.enum(JOB_REASONS);
export type JobReason = z.infer<typeof ZJobReason>;

/** Typed error codes of the control protocol. */
export const ERROR_CODES = [
  "protocol_mismatch",
  "unknown_op",
  "bad_request",
  "not_found",
  "op_conflict",
  "exceeds_capacity",
  "disk_low",
  "missing_input",
  /** The job input does not match its recipe's contract (contracts/recipes); details.issues lists why. */
  "invalid_input",
  "hash_mismatch",
  "path_not_allowed",
  "not_a_regular_file",
  "file_changed",
  "receipt_corrupt",
  "environment_not_ready",
  "recipe_not_found",
  "no_python",
  "lock_timeout",
  "disk_full",
  "internal",
] as const;
export const ZErrorCode = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof ZErrorCode>;
