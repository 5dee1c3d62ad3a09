/**
 * Failure classes: what a worker refusal on submit means for the job. An exhaustive
 * switch (a new protocol code fails the type check here instead of falling through
 * silently).
 */
import type { ErrorCode } from "@/contracts/worker";

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
    case "invalid_input":
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
