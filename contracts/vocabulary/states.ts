/**
 * Job and experiment states in plain words. A job's state reads as what is happening to
 * the step ("waiting for a free slot", not "queued" or "admitted"); an experiment's status
 * is the one-word badge on its page and in the lists.
 */
import { experimentLifecycle, JOB_STATES, type ExperimentStatus, type JobState } from "../lifecycles";

/** Lower-case, to sit after a step's name ("Training models: waiting for a free slot"). */
export const JOB_STATE_WORDS: Record<JobState, string> = {
  queued: "waiting for a free slot",
  admitted: "starting",
  running: "running",
  succeeded: "finished",
  failed: "failed",
  cancelled: "cancelled",
  timed_out: "ran out of time",
  unknown: "not answering (state unknown)",
};

export const EXPERIMENT_STATUS_LABELS: Record<ExperimentStatus, string> = {
  running: "Running",
  succeeded: "Succeeded",
  failed: "Failed",
  cancelled: "Cancelled",
  timed_out: "Timed out",
  unknown: "Outcome unknown",
};

const isJobState = (s: string): s is JobState => (JOB_STATES as readonly string[]).includes(s);
const isExperimentStatus = (s: string): s is ExperimentStatus => (experimentLifecycle.states as readonly string[]).includes(s);

/** A job state's words; a state this build does not know is shown as it is. */
export function jobStateWords(state: string): string {
  return isJobState(state) ? JOB_STATE_WORDS[state] : state;
}

/** The same words as a label of their own ("Waiting for a free slot"), for lists of jobs. */
export function jobStateLabel(state: string): string {
  const w = jobStateWords(state);
  return w.charAt(0).toUpperCase() + w.slice(1);
}

export function experimentStatusLabel(status: string): string {
  return isExperimentStatus(status) ? EXPERIMENT_STATUS_LABELS[status] : status;
}
