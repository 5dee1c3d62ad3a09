/**
 * A search in words, for its page and the list (pure; unit-tested): statuses, who proposed
 * a trial, what the search chose, the best-so-far line of the chart. Numbers use the
 * verdict's 3 significant digits so the page and the experiment's page read alike.
 */
import type { SearchValidationView, SearchView, TrialView } from "@/server/searches/search-views";
import { metricLabel } from "@/contracts/vocabulary";
import { plainNumber } from "@/components/experiment/verdict";

const SEARCH_STATUS: Record<string, string> = {
  running: "Running",
  paused: "Paused: no new trials start",
  stopping: "Stopping the running trials",
  finalizing: "Scoring the choice once on the test rows",
  completed: "Finished",
  failed: "Failed",
};

const TRIAL_STATUS: Record<string, string> = {
  proposed: "Waiting its turn",
  reserved: "Time booked, starting",
  running: "Running",
  unknown: "Computer not answering (time kept booked)",
  succeeded: "Scored on validation",
  failed: "Failed",
  cancelled: "Cancelled",
  timed_out: "Ran out of its time",
  rejected: "Rejected",
};

export const searchStatusWords = (status: string) => SEARCH_STATUS[status] ?? status;
export const trialStatusWords = (status: string) => TRIAL_STATUS[status] ?? status;
export const searchIsActive = (status: string) => status !== "completed" && status !== "failed";

/** Who proposed a trial; a planner's round (one Slurm job array) is named by its trials. */
export function proposerWords(p: TrialView["proposer"]): string {
  if (p.kind === "agent") return `Agent ${p.name}`;
  const how = p.sampler === "tpe" ? "TPE" : "random start";
  return p.round ? `Planner (${how}; round of trials ${p.round.first}–${p.round.first + p.round.size - 1})` : `Planner (${how})`;
}

export const num = (v: number | null | undefined) => (v === null || v === undefined || !Number.isFinite(v) ? "—" : plainNumber(v));

/** "validation accuracy": metric names are lower-cased in a sentence, but not R² or ROC AUC. */
export function metricInSentence(metric: string): string {
  const l = metricLabel(metric);
  return /^[A-Z][a-z]/.test(l) ? l.toLowerCase() : l;
}

type Searchish = Pick<SearchValidationView, "spec" | "trials" | "outcome">;

/** The family of a trial ("GBM"), for the verdict's "Trial 3 (GBM)". */
function familyOf(s: Searchish, trialNumber: number): string | null {
  const f = s.trials.find((t) => t.number === trialNumber)?.params.family;
  return typeof f === "string" ? f : null;
}

/** What a finished search chose, in one sentence; null while it runs. */
export function outcomeWords(s: Searchish): { headline: string; ended: string } | null {
  const o = s.outcome;
  if (!o) return null;
  const m = `validation ${metricInSentence(s.spec.objective.metric)}`;
  if (o.kind === "candidate") {
    const family = familyOf(s, o.trialNumber);
    return {
      headline: `Trial ${o.trialNumber}${family ? ` (${family})` : ""} was chosen: ${m} ${num(o.validationValue)} against the baseline's ${num(o.baselineValidationValue)}.`,
      ended: `The search ended because ${o.ended}.`,
    };
  }
  return { headline: `Keep the baseline: ${o.reason}`, ended: `The search ended because ${o.ended}.` };
}

/** The one test result of the final experiment, in words. */
export function testResultWords(s: Pick<SearchView, "spec" | "final" | "outcome">): string | null {
  const f = s.final;
  if (!f) return null;
  const m = metricInSentence(s.spec.objective.metric);
  if (f.candidate) {
    const rows = f.candidate.rows ? ` on ${f.candidate.rows} test rows` : "";
    return `On the test rows, scored once: ${m} ${num(f.candidate.primaryValue)}${f.baseline ? ` against the baseline's ${num(f.baseline.primaryValue)}` : ""}${rows}.`;
  }
  if (f.baseline) return `The baseline on the test rows, scored once: ${m} ${num(f.baseline.primaryValue)} on ${f.baseline.rows} rows.`;
  return null;
}

export interface ChartPoint {
  trial: number;
  value: number | null;
  best: number | null;
}

/** Validation value per trial (in trial order) and the best so far, in the objective's direction. */
export function chartPoints(spec: Pick<SearchValidationView["spec"], "objective">, trials: readonly Pick<TrialView, "number" | "validationValue" | "status">[]): ChartPoint[] {
  const higher = spec.objective.direction === "higher_is_better";
  let best: number | null = null;
  return [...trials]
    .filter((t) => t.status !== "rejected" && t.status !== "proposed")
    .sort((a, b) => a.number - b.number)
    .map((t) => {
      const v = t.status === "succeeded" ? t.validationValue : null;
      if (v !== null && (best === null || (higher ? v > best : v < best))) best = v;
      return { trial: t.number, value: v, best };
    });
}

/** The share of the wall budget used, 0–100. */
export function budgetPercent(b: SearchValidationView["budget"]): number {
  return b.wallBudgetSeconds > 0 ? Math.min(100, Math.max(0, Math.round((b.wallUsedSeconds / b.wallBudgetSeconds) * 100))) : 0;
}

type SpaceParam = SearchValidationView["spec"]["space"]["params"][number];

function rangeWords(p: SpaceParam): string {
  if (p.kind === "categorical") return p.choices.map(String).join(", ");
  return `${p.low}–${p.high}${p.log ? " (log scale)" : ""}`;
}

/** The frozen space in lines: the top-level choices, then each choice's own settings ("GBM: learning_rate 0.01–0.3 (log scale); …"). */
export function spaceWords(space: SearchValidationView["spec"]["space"]): string[] {
  const top = space.params.filter((p) => !p.when).map((p) => `${p.name}: ${rangeWords(p)}`);
  const groups = new Map<string, string[]>();
  for (const p of space.params) {
    if (!p.when) continue;
    const key = p.when.in.map(String).join(" or ");
    const prefix = `${key}.`;
    const name = p.name.startsWith(prefix) ? p.name.slice(prefix.length) : p.name;
    groups.set(key, [...(groups.get(key) ?? []), `${name} ${rangeWords(p)}`]);
  }
  return [...top, ...[...groups].map(([k, v]) => `${k}: ${v.join("; ")}`)];
}

/** The chart's value axis: the scores and the baseline with a little room, never a range recharts invents around a flat line. */
export function valueDomain(values: readonly number[]): [number, number] {
  if (!values.length) return [0, 1];
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const pad = Math.max((hi - lo) * 0.1, Math.abs(hi) * 0.02, 0.01);
  const round = (v: number) => Number(v.toPrecision(3));
  return [round(lo - pad), round(hi + pad)];
}
