/**
 * A schedule and its runs in words (contracts/schedules ZScheduleView): state, next tick,
 * what each run trains, caps used, an admitting run's step, and the runs grouped so that
 * consecutive no-ops and coalesced ticks read as one line. Pure: the cards render these.
 */
import type { AdmissionStep, RunOutcome, ScheduleRunView, ScheduleView } from "@/contracts/schedules/schedules";

export function stateWords(s: Pick<ScheduleView, "state" | "reason">): string {
  if (s.state === "active") return "active";
  const reason = s.reason?.replace(/\.$/, "");
  return reason ? `${s.state}: ${reason}` : s.state;
}

/** "in 5 h", "in 12 min", "in 2 d", "in under a minute"; a slot already passed is "due now". */
export function relativeWords(iso: string, now: number): string {
  const ms = Date.parse(iso) - now;
  if (ms <= 0) return "due now";
  const min = Math.round(ms / 60_000);
  if (min < 1) return "in under a minute";
  if (min < 60) return `in ${min} min`;
  const h = Math.round(ms / 3_600_000);
  if (h < 48) return `in ${h} h`;
  return `in ${Math.round(ms / 86_400_000)} d`;
}

/** What each run trains: "Quick baseline predicting species, up to 3 min a run". */
export function specWords(spec: ScheduleView["spec"]): string {
  if (spec.mode === "finetune") return `LoRA fine-tune of ${spec.basePath}, ${spec.maxMinutes === undefined ? "the default budget" : `up to ${num(spec.maxMinutes)} min`} a run`;
  const mode = spec.mode === "quick" ? "Quick baseline" : `Improve within a budget${spec.maxTrials ? ` (up to ${spec.maxTrials} trials)` : ""}`;
  const minutes = spec.maxMinutes ?? (spec.mode === "quick" ? 5 : 10);
  return `${mode} predicting ${spec.target}, up to ${num(minutes)} min a run${spec.maxMinutes === undefined ? " (the default)" : ""}`;
}

/** Where each run's data comes from: "/data/p.csv on This computer", or a dataset's newest upload. */
export function sourceWords(source: ScheduleView["source"], computer: string): string {
  return source.kind === "path" ? `${source.path} on ${computer}` : `the newest upload of dataset “${source.name}”, trained on ${computer}`;
}

export function capsWords(s: Pick<ScheduleView, "runsStarted" | "maxRuns" | "computeMinutesUsed" | "maxComputeMinutes" | "minNewRows">): { runs: string; compute: string; minNewRows: string } {
  return {
    runs: s.maxRuns === null ? `${s.runsStarted} started (no cap)` : `${s.runsStarted} of ${s.maxRuns} started`,
    compute: s.maxComputeMinutes === null ? `${num(s.computeMinutesUsed)} min used (no cap)` : `${num(s.computeMinutesUsed)} of ${num(s.maxComputeMinutes)} min used`,
    minNewRows: s.minNewRows > 0 ? `a run needs at least ${s.minNewRows} new rows` : "any change to the file starts a run",
  };
}

const STEP_WORDS: Record<AdmissionStep, string> = {
  observing: "Checking the file is stable",
  importing: "Copying the data",
  profiling: "Reading the new data",
  checking: "Checking the data",
  starting: "Starting the training",
};

export const OUTCOME_WORDS: Record<RunOutcome, string> = {
  admitting: "admitting…",
  started: "started",
  no_op: "no-op",
  coalesced: "coalesced",
  refused: "refused",
};

/** An admitting run: "Checking the file is stable: Checking that /data/x.csv is not still being written." */
export function admittingWords(run: Pick<ScheduleRunView, "step" | "reason">): string {
  const step = run.step ? STEP_WORDS[run.step] : "Waiting for its turn";
  return run.reason ? `${step}: ${run.reason}` : `${step}.`;
}

export type RunGroup = { kind: "run"; run: ScheduleRunView } | { kind: "skipped"; runs: ScheduleRunView[] };

const skipped = (r: ScheduleRunView) => r.outcome === "no_op" || r.outcome === "coalesced";

/** Oldest first; two or more consecutive no-ops / coalesced ticks become one group. */
export function groupRuns(runs: readonly ScheduleRunView[]): RunGroup[] {
  const groups: RunGroup[] = [];
  let streak: ScheduleRunView[] = [];
  const flush = () => {
    if (streak.length === 1) groups.push({ kind: "run", run: streak[0]! });
    else if (streak.length > 1) groups.push({ kind: "skipped", runs: streak });
    streak = [];
  };
  for (const r of runs) {
    if (skipped(r)) streak.push(r);
    else {
      flush();
      groups.push({ kind: "run", run: r });
    }
  }
  flush();
  return groups;
}

/** "3 no-ops: data unchanged since run 4", "2 no-ops and 1 coalesced tick: …" (the latest reason). */
export function skippedWords(runs: readonly ScheduleRunView[]): string {
  const noOps = runs.filter((r) => r.outcome === "no_op").length;
  const coalesced = runs.length - noOps;
  const parts = [noOps ? `${noOps} no-op${noOps === 1 ? "" : "s"}` : null, coalesced ? `${coalesced} coalesced tick${coalesced === 1 ? "" : "s"}` : null].filter(Boolean);
  const reason = runs[runs.length - 1]?.reason?.replace(/\.$/, "");
  const head = parts.join(" and ");
  return reason ? `${head}: ${reason.charAt(0).toLowerCase()}${reason.slice(1)}` : head;
}

/** Where a run's result is: its experiment, else its search; null when it trained nothing. */
export function runHref(projectId: string, run: Pick<ScheduleRunView, "experimentId" | "searchId">): string | null {
  if (run.experimentId) return `/projects/${projectId}/ml/experiments/${run.experimentId}`;
  if (run.searchId) return `/projects/${projectId}/ml/searches/${run.searchId}`;
  return null;
}

/** The latest started run whose training succeeded (or completed, for a search): the one to register. */
export function registrableRun(runs: readonly ScheduleRunView[]): ScheduleRunView | null {
  for (let i = runs.length - 1; i >= 0; i--) {
    const r = runs[i]!;
    if (r.outcome !== "started") continue;
    return r.status === "succeeded" || r.status === "completed" ? r : null;
  }
  return null;
}

function num(x: number): string {
  return Number.isInteger(x) ? String(x) : x.toFixed(1);
}
