// The one exhaustive mapping from how a recipe process ended to the job's final state.
// User faults (bad input, bad manifest, the recipe's own failure) are kept apart from
// system faults (disk full, out of memory, interrupted) by the reason.
import type { JobReason, JobState } from "../../../contracts/worker/states";

/**
 * memory: a serving job's process group went over its memory budget (resources.ramGb).
 * time_limit: Slurm's time limit is near (SIGUSR1); the job goes on as a new Slurm job
 * (continueAsNewSlurmJob), and ends `failed` (interrupted) only when that cannot be.
 * preempted: Slurm is ending the job (SIGTERM); it waits to be started again (requeue).
 */
export type StopCause = "cancel" | "deadline" | "disk_full" | "memory" | "time_limit" | "preempted" | null;

export type ExitKind =
  | { kind: "launch_failed" }
  | { kind: "exited"; code: number }
  | { kind: "signalled"; signal: NodeJS.Signals };

export interface OutcomeInput {
  stop: StopCause;
  exit: ExitKind;
  manifestOk: boolean | null; // null: not checked (not exit 0, or a prepare job)
  oomKilled: boolean;
  diskFullEvidence: boolean;
}

export function decideOutcome(o: OutcomeInput): { state: JobState; reason: JobReason } {
  if (o.stop === "disk_full") return { state: "failed", reason: "disk_full" };
  if (o.stop === "cancel") return { state: "cancelled", reason: "cancel_requested" };
  if (o.stop === "deadline") return { state: "timed_out", reason: "deadline" };
  if (o.stop === "memory") return { state: "failed", reason: "out_of_memory" };
  if (o.stop === "time_limit" || o.stop === "preempted") return { state: "failed", reason: "interrupted" };
  const exit = o.exit;
  switch (exit.kind) {
    case "launch_failed":
      return { state: "failed", reason: "launch_failed" };
    case "exited":
      if (exit.code === 0) return o.manifestOk === false ? { state: "failed", reason: "manifest_invalid" } : { state: "succeeded", reason: "completed" };
      if (o.diskFullEvidence) return { state: "failed", reason: "disk_full" };
      if (exit.code === 2) return { state: "failed", reason: "bad_input" };
      // 130 without a cancel: someone else stopped it; 1 and the rest: the recipe failed.
      return { state: "failed", reason: "exit_code" };
    case "signalled":
      if (exit.signal === "SIGKILL" && o.oomKilled) return { state: "failed", reason: "out_of_memory" };
      if (o.diskFullEvidence) return { state: "failed", reason: "disk_full" };
      return { state: "failed", reason: "exit_code" };
    default: {
      const never: never = exit;
      throw new Error(`unhandled exit ${JSON.stringify(never)}`);
    }
  }
}
