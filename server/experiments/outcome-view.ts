/**
 * How an experiment's phases, steps and failures read on its page: pure mapping from the
 * experiment status and its step jobs to words. The phases come from the steps' own
 * states, never from the stored `phase` alone: the baseline runs beside training, so a
 * run whose training failed has a stored phase of "evaluating", and the page must not paint
 * Training green. A step that "succeeded" only because the cancel stopped it early (its
 * job carries the cancel request) reads as stopped: nothing of it is kept.
 */
import { controllerJobLifecycle, experimentLifecycle } from "@/contracts/lifecycles";
import { jobStateWords, PHASE_LABELS, PHASES, type Phase } from "@/contracts/vocabulary";
import type { TabularStep as StepName } from "./pipelines/tabular";
import { oneLine, type FailureView } from "./failure-words";

export type PhaseState = "done" | "current" | "failed" | "timed_out" | "cancelled" | "stopped" | "not_reached" | "next";

export const PHASE_STATE_WORDS: Record<PhaseState, string> = {
  done: "done",
  current: "in progress",
  failed: "failed",
  timed_out: "ran out of time",
  cancelled: "cancelled",
  stopped: "stopped",
  not_reached: "not reached",
  next: "not started yet",
};

export interface StepFacts {
  step: StepName;
  phase: Phase;
  /** The job's state, null when the step has no job. */
  state: string | null;
  reason: string | null;
  cancelRequested: boolean;
}

export const isTerminalExperiment = (status: string): boolean => experimentLifecycle.isTerminal(status);
/** A step's job still running (or not answering). */
const jobActive = (state: string): boolean => controllerJobLifecycle.isActive(state);

/** The state to show for a step: a job the cancel stopped early is cancelled, whatever its exit said. */
export function shownStepState(status: string, s: StepFacts): string | null {
  if (s.state === "succeeded" && s.cancelRequested && status === "cancelled") return "cancelled";
  return s.state;
}

/** A step's state in plain words, in the light of how the whole experiment ended. */
export function stepStateWords(status: string, s: StepFacts): string {
  const state = shownStepState(status, s);
  switch (state) {
    case null:
      return isTerminalExperiment(status) ? "not run" : "not started yet";
    case "cancelled":
      // The chain cancels the other steps when one fails or the budget runs out.
      if (status === "failed") return "stopped (another step failed)";
      if (status === "timed_out") return "stopped (the time budget ran out)";
      return s.state === "succeeded" ? "stopped by the cancel (not kept)" : "cancelled";
    default:
      return jobStateWords(state);
  }
}

/** One phase's state from its steps' shown states and the experiment's status. */
export function phaseState(status: string, steps: StepFacts[]): PhaseState {
  const terminal = isTerminalExperiment(status);
  const states = steps.map((s) => shownStepState(status, s));
  if (states.includes("failed")) return "failed";
  if (states.includes("timed_out")) return "timed_out";
  if (status === "succeeded" || (states.length > 0 && states.every((s) => s === "succeeded"))) return "done";
  const stoppedAs: PhaseState = status === "cancelled" ? "cancelled" : status === "timed_out" ? "timed_out" : "stopped";
  if (states.some((s) => s !== null && jobActive(s))) return terminal ? stoppedAs : "current";
  if (states.includes("cancelled")) return stoppedAs;
  if (states.every((s) => s === null)) return terminal ? "not_reached" : "next";
  // Some steps done, the rest not started: a stop in between, or the next steps are coming.
  return terminal ? stoppedAs : "next";
}

export interface PhaseView {
  key: Phase;
  label: string;
  state: PhaseState;
  words: string;
}

export function phaseViews(status: string, steps: StepFacts[]): PhaseView[] {
  return PHASES.map((key) => {
    const state = phaseState(
      status,
      steps.filter((s) => s.phase === key),
    );
    return { key, label: PHASE_LABELS[key], state, words: PHASE_STATE_WORDS[state] };
  });
}

/** How training ended, for the outcome badge: "finished" only when a model was made and kept. */
export type TrainingOutcome = "finished" | "failed" | "cancelled" | "timed_out" | "running" | "not_started";

export function trainingOutcome(status: string, train: StepFacts | undefined): TrainingOutcome {
  const state = train ? shownStepState(status, train) : null;
  if (state === "succeeded") return "finished";
  if (state === "failed") return "failed";
  if (state === "timed_out") return "timed_out";
  if (state === "cancelled") return status === "timed_out" ? "timed_out" : status === "failed" ? "failed" : "cancelled";
  if (state !== null && jobActive(state)) return isTerminalExperiment(status) ? (status === "timed_out" ? "timed_out" : "cancelled") : "running";
  return "not_started";
}

export interface OutcomeView {
  summary: string;
  action: string;
  technical: string | null;
}

/**
 * The one-paragraph story of a run that did not succeed: what happened and what to do
 * next. `failure` is the first failed step's explanation; `note` the experiment's own
 * reason (set when the chain could not even start a step).
 */
export function experimentOutcome(
  status: string,
  note: string | null,
  failure: { stepLabel: string; view: FailureView } | null,
  budgetSeconds: number,
  runningStepLabel: string | null,
): OutcomeView | null {
  switch (status) {
    case "failed":
      if (failure) return failure.view;
      return {
        summary: oneLine(note) ? `The run stopped before it could finish: ${oneLine(note)}` : "The run stopped before it could finish.",
        action: "Use Run again; if it fails the same way, start a new experiment with Train a prediction model.",
        technical: note && note.includes("\n") ? note : null,
      };
    case "timed_out": {
      const minutes = Math.max(1, Math.round(budgetSeconds / 60));
      const during = failure ? ` while ${failure.stepLabel.toLowerCase()}` : runningStepLabel ? ` while ${runningStepLabel.toLowerCase()}` : "";
      return {
        summary: `The ${minutes}-minute time budget ran out${during}.`,
        action: "Use Run again with more minutes (Max minutes in Effort and limits), or the Quick baseline.",
        technical: note,
      };
    }
    case "cancelled":
      return { summary: "You cancelled this run; nothing it trained is kept.", action: "Use Run again to start it over with the same settings.", technical: note && note !== "cancelled by the user" ? note : null };
    case "unknown":
      return {
        summary: "The training computer stopped answering, so how this run ends is not known yet.",
        action: "It settles by itself when the computer answers again; check it under Settings → Training computers.",
        technical: note,
      };
    default:
      return null;
  }
}
