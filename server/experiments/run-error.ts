/**
 * Why a run did not succeed, as every surface shows it — the CLI's text and `--json`
 * (`error: {code, message, fix, step}`), `experiments show`, the experiment's page and the
 * phone: one value computed here from the first failed step's explanation
 * (failure-words.ts), so no surface rebuilds it from the experiment's reason text.
 */
import type { FailureView } from "./failure-words";
import type { OutcomeView } from "./outcome-view";

export interface RunError {
  /** The recipe's own code (over_budget, too_few_rows), else the job's reason (out_of_memory), else the run's status. */
  code: string;
  /** What happened, for people. */
  message: string;
  /** The next thing to do. */
  fix: string;
  /** The step that failed, as people know it ("Checking the time and memory"); null when the run stopped between steps. */
  step: string | null;
}

export interface FailedStep {
  label: string;
  view: FailureView;
  code: string;
}

/** The code of a failed step's job: what its recipe said, else why the worker ended it, else its state. */
export function failedStepCode(job: { state: string; reason: string | null }, recipeCode: string | undefined): string {
  return recipeCode ?? job.reason ?? job.state;
}

export function runError(status: string, outcome: OutcomeView | null, failed: FailedStep | null): RunError | null {
  if ((status !== "failed" && status !== "timed_out") || !outcome) return null;
  return { code: failed?.code ?? status, message: outcome.summary, fix: outcome.action, step: failed?.label ?? null };
}
