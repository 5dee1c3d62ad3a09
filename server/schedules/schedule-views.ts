/** Builds the views of schedules from rows (contracts/schedules ZScheduleView), JSON columns parsed here, once. */
import type { ScheduleState } from "@/contracts/lifecycles";
import { ZScheduleClock, ZScheduleSource, ZScheduleSpec, type RunOutcome, type RunTrigger, type AdmissionStep, type ScheduleRunView, type ScheduleView } from "@/contracts/schedules/schedules";
import type { RunRow, ScheduleRow } from "./schedules.repository";
import { clockWords } from "./slots";

export interface RunStatuses {
  /** Experiment or search id → its status. */
  [id: string]: string;
}

function runView(r: RunRow, statuses: RunStatuses): ScheduleRunView {
  const ref = r.experimentId ?? r.searchId;
  return {
    seq: r.seq,
    trigger: r.trigger as RunTrigger,
    outcome: r.outcome as RunOutcome,
    reason: r.reason,
    step: r.step as AdmissionStep | null,
    slotAt: r.slotAt.toISOString(),
    createdAt: r.createdAt.toISOString(),
    dataSha256: r.dataSha256,
    rows: r.rows,
    experimentId: r.experimentId,
    searchId: r.searchId,
    status: ref ? (statuses[ref] ?? "deleted") : null,
    result: r.result,
  };
}

/** The last decision in words: a finished run's result, else the last run's outcome and reason. */
function lastResultOf(runs: ScheduleRunView[]): string | null {
  const last = runs[runs.length - 1];
  if (!last) return null;
  if (last.result) return last.result;
  const words: Record<RunOutcome, string> = { admitting: "being admitted", started: "training", no_op: "no-op", coalesced: "coalesced", refused: "refused" };
  return `Run ${last.seq}: ${words[last.outcome]}${last.reason ? ` — ${last.reason}` : ""}`;
}

export function scheduleView(s: ScheduleRow, runs: RunRow[], computer: string, statuses: RunStatuses): ScheduleView {
  const views = runs.map((r) => runView(r, statuses));
  const started = runs.filter((r) => r.outcome === "started");
  const clock = ZScheduleClock.parse(JSON.parse(s.clock));
  return {
    id: s.id,
    projectId: s.projectId,
    name: s.name,
    state: s.state as ScheduleState,
    reason: s.reason,
    revision: s.revision,
    source: ZScheduleSource.parse(JSON.parse(s.source)),
    computer,
    spec: ZScheduleSpec.parse(JSON.parse(s.spec)),
    clock,
    clockWords: clockWords(clock),
    maxRuns: s.maxRuns,
    maxComputeMinutes: s.maxComputeMinutes,
    minNewRows: s.minNewRows,
    nextSlotAt: s.state === "active" ? s.nextSlotAt.toISOString() : null,
    pendingLatest: s.pendingLatest,
    runsStarted: started.length,
    computeMinutesUsed: started.reduce((sum, r) => sum + (r.budgetMinutes ?? 0), 0),
    lastResult: lastResultOf(views),
    runs: views,
  };
}
