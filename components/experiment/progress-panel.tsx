"use client";
import { useEffect, useState } from "react";
import type { ExperimentDetailView } from "@/server/experiments/experiment-views";
import { PHASES, STATUS_LABELS, formatDuration, isTerminalStatus, progressPercent } from "./format";

/** Phases, a progress bar with the current step (including first-use setup notes), and elapsed time. */
export function ProgressPanel({ exp }: { exp: ExperimentDetailView }) {
  const terminal = isTerminalStatus(exp.status);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (terminal) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [terminal]);
  const elapsed = terminal ? exp.seconds : Math.max(exp.seconds, (now - new Date(exp.createdAt).getTime()) / 1000);
  const pct = progressPercent(exp.progress.done, exp.progress.total, exp.status);
  const phaseIndex = PHASES.findIndex((p) => p.key === exp.phase);
  const current = exp.progress.currentStep;
  const note = exp.note && exp.note !== current ? exp.note : null;
  return (
    <section aria-labelledby="progress-heading" className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4">
      <h3 id="progress-heading" className="text-base font-semibold">
        Progress
      </h3>
      <ol className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-4" aria-label="Phases">
        {PHASES.map((p, i) => {
          const state = exp.status === "succeeded" || i < phaseIndex ? "done" : i === phaseIndex ? (terminal ? "stopped" : "current") : "next";
          return (
            <li
              key={p.key}
              aria-current={state === "current" ? "step" : undefined}
              className={`rounded-md px-2 py-1 ${state === "done" ? "bg-green-100 text-green-900" : state === "current" ? "bg-blue-100 font-semibold text-blue-900" : state === "stopped" ? "bg-amber-100 text-amber-900" : "bg-slate-100 text-slate-700"}`}
            >
              {p.label}
              <span className="sr-only"> ({state})</span>
            </li>
          );
        })}
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
        <strong>{STATUS_LABELS[exp.status] ?? exp.status}</strong> · {exp.progress.done} of {exp.progress.total} steps
        {current && !terminal && <> · {current}</>} · elapsed {formatDuration(elapsed)} of a {formatDuration(exp.budgetSeconds)} budget
      </p>
      {note && (
        <p role="status" className="text-sm text-slate-700">
          {note}
        </p>
      )}
    </section>
  );
}
