"use client";
import { useEffect, useState } from "react";
import type { ExperimentDetailView } from "@/server/experiments/experiment-views";
import { experimentLifecycle } from "@/contracts/lifecycles";
import { experimentStatusLabel } from "@/contracts/vocabulary";
import { formatDuration, progressPercent } from "./format";

const PHASE_CLASS: Record<string, string> = {
  done: "bg-green-100 text-green-900",
  current: "bg-blue-100 font-semibold text-blue-900",
  failed: "bg-red-100 text-red-900",
  timed_out: "bg-red-100 text-red-900",
  cancelled: "bg-amber-100 text-amber-900",
  stopped: "bg-amber-100 text-amber-900",
  not_reached: "bg-slate-100 text-slate-600",
  next: "bg-slate-100 text-slate-700",
};
const PHASE_MARK: Record<string, string> = { done: "✓ ", failed: "✗ ", timed_out: "✗ ", cancelled: "■ ", stopped: "■ " };

/**
 * Phases (each from its own steps' states), a progress bar with the current step
 * (including first-use setup notes), elapsed time, and every step in plain words.
 */
export function ProgressPanel({ exp }: { exp: ExperimentDetailView }) {
  const terminal = experimentLifecycle.isTerminal(exp.status);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (terminal) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [terminal]);
  const elapsed = terminal ? exp.seconds : Math.max(exp.seconds, (now - new Date(exp.createdAt).getTime()) / 1000);
  const pct = progressPercent(exp.progress.done, exp.progress.total, exp.status);
  const current = exp.progress.currentStep;
  const note = exp.note && exp.note !== current ? exp.note : null;
  return (
    <section aria-labelledby="progress-heading" className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4">
      <h3 id="progress-heading" className="text-base font-semibold">
        Progress
      </h3>
      <ol className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-4" aria-label="Phases">
        {exp.phases.map((p) => (
          <li key={p.key} data-testid={`phase-${p.key}`} data-state={p.state} aria-current={p.state === "current" ? "step" : undefined} className={`rounded-md px-2 py-1 ${PHASE_CLASS[p.state] ?? PHASE_CLASS.next}`}>
            <span aria-hidden="true">{PHASE_MARK[p.state] ?? ""}</span>
            {p.label}
            <span className="block text-xs font-normal">{p.words}</span>
          </li>
        ))}
      </ol>
      <div
        role="progressbar"
        aria-label="Experiment progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct}
        aria-valuetext={`${pct}% — ${exp.progress.done} of ${exp.progress.total} steps${current ? `, ${current}` : ""}`}
        className="h-3 w-full rounded bg-slate-200"
      >
        <div className={`h-3 rounded ${exp.status === "failed" || exp.status === "timed_out" ? "bg-red-600" : exp.status === "cancelled" ? "bg-amber-600" : "bg-blue-700"}`} style={{ width: `${pct}%` }} />
      </div>
      <p className="text-sm text-slate-800" data-testid="experiment-status">
        <strong>{experimentStatusLabel(exp.status)}</strong> · {exp.progress.done} of {exp.progress.total} steps
        {current && !terminal && <> · {current}</>} · elapsed {formatDuration(elapsed)} of a {formatDuration(exp.budgetSeconds)} budget
      </p>
      {note && !terminal && (
        <p role="status" className="text-sm text-slate-700">
          {note}
        </p>
      )}
      {exp.placement && (
        <p className="text-sm text-slate-700" data-testid="experiment-placement">
          Runs on {exp.placement.chosen}, chosen from any computer: {exp.placement.why}
        </p>
      )}
      {exp.waiting && !terminal && (
        <p role="status" className="text-sm text-slate-700" data-testid="experiment-waiting">
          {exp.waiting}
        </p>
      )}
      <details open={!terminal} className="text-sm">
        <summary className="min-h-10 cursor-pointer font-medium">Steps</summary>
        <ol className="flex flex-col gap-1" aria-label="Steps">
          {exp.steps.map((s) => (
            <li key={s.step} className="flex flex-wrap justify-between gap-x-3 border-b border-slate-100 py-1" data-testid="step-row" data-step={s.step}>
              <span>{s.label}</span>
              <span className={s.shownState === "failed" || s.shownState === "timed_out" ? "text-red-800" : "text-slate-700"}>{s.stateWords}</span>
            </li>
          ))}
        </ol>
      </details>
    </section>
  );
}
