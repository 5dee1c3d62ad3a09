/**
 * Failure classes: what a worker refusal on submit means for the job, and whose fault
 * a final reason is. Exhaustive switches (a new protocol code fails the type check here
 * instead of falling through silently).
 */
import type { ErrorCode, JobReason } from "@/contracts/worker";

/** Reasons the controller itself records (beside the worker's JobReason values). */
export type ControllerReason =
  | "submit_refused"
  | "unreachable"
  | "receipt_missing"
  | "receipt_corrupt"
  | "already_ready"
  | "cancelled_before_submit";

export type Fault = "user" | "system";

export interface SubmitRefusalClass {
  /** retry: leave the job queued and submit again on a later reconcile pass. */
  action: "fail" | "retry";
  fault: Fault;
}

export function classifySubmitRefusal(code: ErrorCode): SubmitRefusalClass {
  switch (code) {
    case "bad_request":
    case "missing_input":
    case "exceeds_capacity":
    case "recipe_not_found":
    case "hash_mismatch":
    case "path_not_allowed":
    case "not_a_regular_file":
    case "file_changed":
      return { action: "fail", fault: "user" };
    case "protocol_mismatch":
    case "unknown_op":
    case "not_found":
    case "op_conflict":
    case "receipt_corrupt":
    case "environment_not_ready":
    case "no_python":
    case "disk_low":
    case "disk_full":
      return { action: "fail", fault: "system" };
    // Passing conditions: another worker call held a lock, or a bug the next try may not hit.
    case "lock_timeout":
    case "internal":
      return { action: "retry", fault: "system" };
    default: {
      const never: never = code;
      return never;
    }
  }
}

export function faultOfReason(reason: JobReason | ControllerReason): Fault {
  switch (reason) {
    case "exit_code":
    case "bad_input":
    case "out_of_memory":
    case "deadline":
    case "cancel_requested":
    case "completed":
    case "manifest_invalid":
      return "user";
    case "disk_full":
    case "interrupted":
    case "launch_failed":
    case "environment_missing":
    case "supervisor_gone":
    case "submit_refused":
    case "unreachable":
    case "receipt_missing":
    case "receipt_corrupt":
    case "already_ready":
    case "cancelled_before_submit":
      return "system";
    default: {
      const never: never = reason;
      return never;
    }
  }
}
