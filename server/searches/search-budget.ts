/**
 * A search's budget arithmetic (issue 17), pure: wall time used, what the next trial may
 * reserve, and whether the search must end. Wall time counts only while the search runs
 * (a paused spell is not spent); a trial books its share before it is admitted, so the
 * whole search, final test scoring included, ends within its wall budget.
 */
import { SEARCH_LIMITS, type SearchSpec } from "@/contracts/searches/search-spec";

/**
 * Kept back from the last trial for the final scoring (predict, baseline, score, package on
 * test): at least 30 s or 5 % of the budget, and once trials have run, as long as the
 * longest one took — the final steps are about a trial's worth of process starts, and on
 * a loaded machine every one of them is slower. Never more than 30 % of the budget.
 */
export function finalReserveSeconds(spec: SearchSpec, longestTrialSeconds: number | null = null): number {
  const wall = spec.budget.maxWallMinutes * 60;
  return Math.min(Math.max(90, wall * 0.3), Math.max(30, wall * 0.05, longestTrialSeconds ?? 0));
}

/** The longest time a finished trial took, the measure of what the next one will need. */
export function longestTrialSeconds(trials: readonly { usedSeconds: number | null }[]): number | null {
  const used = trials.flatMap((t) => (t.usedSeconds === null ? [] : [t.usedSeconds]));
  return used.length ? Math.max(...used) : null;
}

export function wallUsedSeconds(s: { wallUsedSeconds: number; runningSince: Date | null }, now: Date): number {
  return s.wallUsedSeconds + (s.runningSince ? Math.max(0, (now.getTime() - s.runningSince.getTime()) / 1000) : 0);
}

export const wallLeftSeconds = (spec: SearchSpec, used: number) => spec.budget.maxWallMinutes * 60 - used;

/**
 * What the next trial books: its own limit, or what is left before the final reserve; null
 * when that is less than a trial needs (the minimum, or as long as the longest trial took).
 */
export function nextReservation(spec: SearchSpec, used: number, longest: number | null = null): number | null {
  const left = wallLeftSeconds(spec, used) - finalReserveSeconds(spec, longest);
  const seconds = Math.min(spec.budget.perTrialMinutes * 60, left);
  const needed = Math.max(SEARCH_LIMITS.minTrialSeconds, Math.min(longest ?? 0, spec.budget.perTrialMinutes * 60));
  return seconds >= needed ? Math.floor(seconds) : null;
}

export interface FinishedTrial {
  value: number | null;
}

/** Better by at least the minimum useful gain, in the objective's direction. */
export function gain(spec: SearchSpec, value: number, reference: number): number {
  return spec.objective.direction === "higher_is_better" ? value - reference : reference - value;
}

/** Trials in a row (newest last) since the best so far last improved by the minimum useful gain. */
export function trialsWithoutGain(spec: SearchSpec, finished: readonly FinishedTrial[]): number {
  let best: number | null = null;
  let since = 0;
  for (const t of finished) {
    if (t.value !== null && (best === null || gain(spec, t.value, best) >= spec.objective.minUsefulGain)) {
      best = t.value;
      since = 0;
    } else since++;
  }
  return since;
}

export type StopReason = "max_trials" | "wall_budget" | "patience";

export const STOP_WORDS: Record<StopReason, string> = {
  max_trials: "it ran its maximum number of trials",
  wall_budget: "its time budget has no room for another trial",
  patience: "trials stopped improving (patience reached)",
};

/** Why no further trial may start, or null. `booked` counts every trial that reserved budget. */
export function stopReason(spec: SearchSpec, booked: number, finished: readonly FinishedTrial[], used: number, longest: number | null = null): StopReason | null {
  if (booked >= spec.budget.maxTrials) return "max_trials";
  if (spec.patience !== null && finished.length > 0 && trialsWithoutGain(spec, finished) >= spec.patience) return "patience";
  if (nextReservation(spec, used, longest) === null) return "wall_budget";
  return null;
}
