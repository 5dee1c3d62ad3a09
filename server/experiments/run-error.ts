/**
 * Why a run did not succeed, as every surface shows it — the CLI's text and `--json`
 * (`error: {code, message, fix, step, retry}`), `experiments show`, the experiment's page and
 * the phone: one value computed here from the first failed step's explanation
 * (failure-words.ts), so no surface rebuilds it from the experiment's reason text.
 */
import { z } from "zod";
import type { FailureView, RecipeError } from "./failure-words";
import type { OutcomeView } from "./outcome-view";

/** Settings that replace the failed run's own in a new run the recipe said would fit. */
export type RetrySettings = { maxSteps: number } | { batchSize: number; maxLength: number };

/** A fix that is a new run with changed settings: what the button says, and the settings it changes. */
export interface RunRetry {
  /** "Run again with at most 12 steps". */
  words: string;
  settings: RetrySettings;
}

export interface RunError {
  /** The recipe's own code (over_budget, too_few_rows), else the job's reason (out_of_memory), else the run's status. */
  code: string;
  /** What happened, for people. */
  message: string;
  /** The next thing to do. */
  fix: string;
  /** The step that failed, as people know it ("Checking the time and memory"); null when the run stopped between steps. */
  step: string | null;
  /** The one-tap fix, when the recipe named settings that would fit (llm-lora's preflight); null otherwise. */
  retry?: RunRetry | null;
}

export interface FailedStep {
  label: string;
  view: FailureView;
  code: string;
  retry?: RunRetry | null;
}

// The details llm-lora's preflight gives with its refusals (training/recipes/llm_lora/preflight.py).
const MAX_STEPS = 1_000_000; // ZFineTuneSettings.maxSteps' upper bound
const ZOverBudgetDetails = z.object({ fittingMaxSteps: z.number().int() });
const ZMemoryDetails = z.object({ fitting: z.array(z.object({ batchSize: z.int().min(1).max(512), maxLength: z.int().min(16).max(32768) })) });

/**
 * The new run a refusal's typed details say would fit; null for any other error, details of
 * another shape, or a budget too small for even one step (fittingMaxSteps < 1).
 */
export function retryOf(error: RecipeError | null): RunRetry | null {
  switch (error?.code) {
    case "over_budget": {
      const d = ZOverBudgetDetails.safeParse(error.details);
      if (!d.success || d.data.fittingMaxSteps < 1) return null;
      const steps = Math.min(d.data.fittingMaxSteps, MAX_STEPS);
      return { words: `Run again with at most ${steps} step${steps === 1 ? "" : "s"}`, settings: { maxSteps: steps } };
    }
    case "does_not_fit_memory": {
      const d = ZMemoryDetails.safeParse(error.details);
      // The preflight lists the largest batch size first, each with its longest length that fits.
      const first = d.success ? d.data.fitting[0] : undefined;
      if (!first) return null;
      return { words: `Run again with batch size ${first.batchSize} and max length ${first.maxLength}`, settings: { batchSize: first.batchSize, maxLength: first.maxLength } };
    }
    default:
      return null;
  }
}

/** The code of a failed step's job: what its recipe said, else why the worker ended it, else its state. */
export function failedStepCode(job: { state: string; reason: string | null }, recipeCode: string | undefined): string {
  return recipeCode ?? job.reason ?? job.state;
}

export function runError(status: string, outcome: OutcomeView | null, failed: FailedStep | null): RunError | null {
  if ((status !== "failed" && status !== "timed_out") || !outcome) return null;
  return { code: failed?.code ?? status, message: outcome.summary, fix: outcome.action, step: failed?.label ?? null, retry: failed?.retry ?? null };
}
