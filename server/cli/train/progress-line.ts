import type { ExperimentDetailView } from "@/server/experiments/experiment-views";

const PHASE_NAMES: Record<string, string> = {
  preparing_data: "Preparing data",
  training: "Training",
  evaluating: "Evaluating",
  comparing: "Comparing",
};

export const phaseName = (phase: string): string => PHASE_NAMES[phase] ?? phase;

/** One human line for the experiment's current state, printed when it changes (what it waits for, while a step waits its turn). */
export function describeProgress(e: ExperimentDetailView): string {
  const phase = phaseName(e.phase);
  const step = e.progress.currentStep ? `: ${e.progress.currentStep}` : "";
  const unreachable = e.steps.find((s) => s.unreachableSince);
  const extra = unreachable ? ` (computer unreachable since ${unreachable.unreachableSince})` : "";
  // A step waiting its turn says what for and which job holds it.
  const waiting = e.waiting ? ` — ${e.waiting}` : "";
  return `[${e.status}] ${phase} ${e.progress.done}/${e.progress.total}${step}${extra}${waiting}`;
}
