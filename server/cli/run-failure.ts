/**
 * A run that ended without success, as the CLI reports it: the server's `error` (code,
 * message, fix, step; server/experiments/run-error.ts) when a step failed or the budget ran
 * out, else the way it ended (cancelled). In `--json` it is the `error` field, null while the
 * run goes on or once it succeeded; in text, two lines: what happened and what to do.
 */
import { isExperimentTerminal } from "@/server/experiments/experiment-state";
import type { RunError } from "@/server/experiments/run-error";

export function runFailure(status: string, error: RunError | null, note: string | null): RunError | null {
  if (status === "succeeded" || !isExperimentTerminal(status)) return null;
  if (error) return error;
  return {
    code: `experiment_${status}`,
    message: `The experiment ended ${status.replace("_", " ")}${note ? `: ${note}` : "."}`,
    fix: status === "cancelled" ? "Start it again when you want its result." : "Run it again; if it ends the same way, read its log with `trainyard experiments logs ID`.",
    step: null,
  };
}

export function runFailureLines(e: Pick<RunError, "step" | "message" | "fix">): string[] {
  return [`${e.step ? `Failed at "${e.step}"` : "Did not succeed"}: ${e.message}`, `What to do: ${e.fix}`];
}

/** The failure a text report tells in its own lines: a cancel is told by its note instead. */
export const toldFailure = <E extends Omit<RunError, "retry">>(status: string, error: E | null): E | null => (error && status !== "cancelled" ? error : null);
