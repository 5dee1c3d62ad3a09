/**
 * Why a step failed, for people: a one-line summary and the next thing to do, with the
 * technical facts (reason code, recipe error code, detail, a Python traceback) kept apart
 * so the page can fold them away. Pure; unit-tested. The reason codes are the worker's
 * (contracts/worker/states.ts) and the controller's (server/jobs/failure-class.ts); the
 * error codes are the recipes' BadInput codes.
 */

import { z } from "zod";

/**
 * A recipe's own error in its job's report (training/trainyard_recipe/errors.py:
 * `{type, code, message, details?}`). `details` stays untyped here: the one reader of a
 * code's details types them with its own schema (run-error.ts retryOf), never from the words.
 * A field of the wrong type is dropped, not the whole error.
 */
const ZRecipeError = z.object({
  type: z.string().optional().catch(undefined),
  code: z.string().optional().catch(undefined),
  message: z.string().optional().catch(undefined),
  details: z.record(z.string(), z.unknown()).optional().catch(undefined),
});
export type RecipeError = z.infer<typeof ZRecipeError>;

export interface FailureFacts {
  stepLabel: string;
  state: string;
  reason: string | null;
  detail: string | null;
  error: RecipeError | null;
  /** Which wizard a new attempt starts from; tabular unless said. */
  kind?: "tabular" | "finetune";
}

export interface FailureView {
  summary: string;
  action: string;
  /** Codes, the raw detail and any traceback: shown collapsed. */
  technical: string | null;
}

const RUN_AGAIN = "Use Run again; if it fails the same way, download the full log and look at the last lines.";
const CHECK_COMPUTER = "Check the computer under Settings → Training computers (it shows whether it answers and its free disk), then use Run again.";
const NEW_SETUP = {
  tabular: "Start a new experiment with Train a prediction model and change the choice named above.",
  finetune: "Start a new fine-tune (Fine-tune a language model, or `trainyard finetune`) and change the setting named above.",
} as const;

/** What a user can do about a recipe's bad-input code. */
const INPUT_ACTIONS: Record<string, string> = {
  too_few_rows: "Use a file with more rows (at least a few dozen per class), or predict a column with fewer, larger classes.",
  target_single_value: "The column to predict has one value only: pick another column to predict.",
  invalid_target: "Pick another column to predict (one with at least two values that repeat).",
  unsupported_target: "Pick another column to predict (numbers or a few categories).",
  unknown_class: "Pick the positive class among the classes in the data, or let Trainyard choose it.",
  too_few_groups: "Use a random split instead of a group split, or a file with more groups.",
  too_few_times: "Use a random split instead of a time split, or a file that spans more dates.",
  unknown_column: "A column named in the settings is not in the data: start a new experiment with the current file.",
  empty_file: "The file has no rows: upload a file with a header and data rows.",
  header_only: "The file has a header but no data rows: upload a file with data rows.",
  ragged_rows: "Some rows have more or fewer fields than the header: fix the file (or its delimiter) and upload it again.",
  unreadable: "The file could not be read as a table: check its format and encoding, then upload it again.",
  metric_unavailable: "The chosen metric cannot be computed for this data: pick another metric in the wizard.",
  over_budget: "Start it again with the settings the message says would fit (maxSteps, fewer epochs, a shorter maxLength), or with more minutes.",
  does_not_fit_memory: "Start it again with a setting the message says would fit (a smaller batch or a shorter maxLength), or on a computer with more memory.",
};

const firstLine = (s: string) => s.split("\n").map((l) => l.trim()).find((l) => l.length > 0) ?? "";

/** A traceback's own message is its last line ("ValueError: …"); anything else, its first. */
export function oneLine(text: string | null | undefined): string {
  if (!text) return "";
  if (/Traceback \(most recent call last\)/.test(text)) {
    const lines = text.split("\n").map((l) => l.trim()).filter(Boolean);
    const last = [...lines].reverse().find((l) => /^[A-Za-z_.]+(Error|Exception|Exit)\b|^[A-Za-z_.]+: /.test(l)) ?? lines[lines.length - 1] ?? "";
    return last.length > 240 ? `${last.slice(0, 239)}…` : last;
  }
  const l = firstLine(text);
  return l.length > 240 ? `${l.slice(0, 239)}…` : l;
}

function technicalOf(f: FailureFacts): string | null {
  const parts = [
    f.reason ? `reason: ${f.reason}` : null,
    f.error?.code ? `error code: ${f.error.code}` : null,
    f.error?.type ? `error type: ${f.error.type}` : null,
    f.error?.message && f.error.message.includes("\n") ? f.error.message : null,
    f.detail ?? null,
  ].filter((p): p is string => Boolean(p));
  return parts.length ? parts.join("\n") : null;
}

/** The explanation of one failed or timed-out step; null for steps that did not fail. */
export function explainFailure(f: FailureFacts): FailureView | null {
  if (f.state !== "failed" && f.state !== "timed_out") return null;
  const said = oneLine(f.error?.message) || oneLine(f.detail);
  const technical = technicalOf(f);
  const at = f.stepLabel.toLowerCase();
  if (f.state === "timed_out" || f.reason === "deadline")
    return { summary: `${f.stepLabel} ran past its time limit and was stopped.`, action: "Use Run again with more minutes (Max minutes in Effort and limits), or the Quick baseline.", technical };
  switch (f.reason) {
    case "bad_input": {
      const action = (f.error?.code && INPUT_ACTIONS[f.error.code]) || NEW_SETUP[f.kind ?? "tabular"];
      return { summary: said ? `The data or settings cannot be used: ${said}` : `${f.stepLabel} refused its input.`, action, technical };
    }
    case "out_of_memory":
      return { summary: `The computer ran out of memory while ${at}.`, action: "Use the Quick baseline, leave out wide text columns, or train on a computer with more memory.", technical };
    case "disk_full":
      return { summary: `The computer's disk filled up while ${at}.`, action: CHECK_COMPUTER.replace("then", "free some space, then"), technical };
    case "launch_failed":
    case "environment_missing":
      return { summary: `The training tools could not start on this computer (${at}).`, action: CHECK_COMPUTER, technical };
    case "interrupted":
    case "supervisor_gone":
      return { summary: `${f.stepLabel} was interrupted: the computer restarted or the job's process disappeared.`, action: RUN_AGAIN, technical };
    case "submit_refused":
    case "unreachable":
    case "receipt_missing":
    case "receipt_corrupt":
      return { summary: `The training computer refused or lost this step${said ? `: ${said}` : "."}`, action: CHECK_COMPUTER, technical };
    case "manifest_invalid":
      return { summary: `${f.stepLabel} finished but its output files were incomplete.`, action: RUN_AGAIN, technical };
    default:
      if (/\bstopped by SIGKILL\b/.test(f.detail ?? ""))
        return {
          summary: `${f.stepLabel} was killed by the system, most often because the computer ran out of memory.`,
          action: "Use Run again with the Quick baseline, leave out wide text columns, or train on a computer with more memory.",
          technical,
        };
      return { summary: said ? `${f.stepLabel} stopped with an error: ${said}` : `${f.stepLabel} stopped with an error and left no message.`, action: RUN_AGAIN, technical };
  }
}

/** The recipe's own error in a job's stored report (contracts: report.error); null when it wrote none. */
export function recipeError(report: string | null | undefined): RecipeError | null {
  try {
    const r = report ? (JSON.parse(report) as { error?: unknown }) : null;
    const parsed = ZRecipeError.safeParse(r?.error);
    return r?.error && parsed.success ? parsed.data : null;
  } catch {
    return null; // a report that is not JSON carries no recipe error
  }
}

/**
 * An experiment's reason when one of its steps ended badly: the step as people know it
 * ("Checking the time and memory") and what its recipe said, which for a refusal names the
 * fix ("maxSteps 12 would fit"), instead of the step's internal name and a reason code.
 */
export function stepFailureReason(stepLabel: string, job: { state: string; reason: string | null; detail: string | null; report: string | null }): string {
  const view = explainFailure({ stepLabel, state: job.state, reason: job.reason, detail: job.detail, error: recipeError(job.report) });
  return view ? `${stepLabel}: ${view.summary}` : `${stepLabel} ended ${job.state.replace("_", " ")}.`;
}
