"use client";
import { useEffect, useState } from "react";
import { experimentLifecycle } from "@/contracts/lifecycles";
import { experimentStatusLabel } from "@/contracts/vocabulary";
import { formatDuration } from "@/components/experiment/format";
import type { FineTuneView } from "@/server/finetune/finetune.schema";
import { trainingProgress } from "./finetune-words";

const BAR: Record<string, string> = { failed: "bg-red-600", timed_out: "bg-red-600", cancelled: "bg-amber-600" };

/** Status, the step now running in words, training progress (step of planned, tokens/s, time left) and elapsed time. */
export function FineTuneStatus({ view }: { view: FineTuneView }) {
  const exp = view.experiment;
  const ended = experimentLifecycle.isTerminal(exp.status);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (ended) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [ended]);
  const end = exp.endedAt ? new Date(exp.endedAt).getTime() : now;
  const elapsed = (end - new Date(exp.startedAt).getTime()) / 1000;
  const progress = trainingProgress(view.training);
  const pct = exp.status === "succeeded" ? 100 : (progress.percent ?? 0);
  // A failure is told by its error (what happened, what to do); the reason would say it twice.
  const note = view.error ? null : ended ? exp.reason : exp.progressNote;
  return (
    <section aria-labelledby="ft-status-heading" className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-4">
      <h3 id="ft-status-heading" className="text-base font-semibold">
        Status
      </h3>
      <p className="text-sm text-slate-800" data-testid="experiment-status">
        <strong>{experimentStatusLabel(exp.status)}</strong>
        {(view.step ?? view.error?.step) && <> · {view.step?.label ?? view.error?.step}</>} · elapsed {formatDuration(elapsed)} of a {formatDuration(exp.settings.maxMinutes * 60)} budget
      </p>
      <div
        role="progressbar"
        aria-label="Training progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct}
        aria-valuetext={`${pct}% — ${progress.words}`}
        className="h-3 w-full rounded bg-slate-200"
      >
        <div className={`h-3 rounded ${BAR[exp.status] ?? "bg-blue-700"}`} style={{ width: `${pct}%` }} />
      </div>
      <p className="text-sm text-slate-700" data-testid="training-progress">
        {progress.words}
      </p>
      {view.waiting && !ended && (
        <p role="status" className="text-sm text-slate-700" data-testid="experiment-waiting">
          {view.waiting}
        </p>
      )}
      {view.error && (
        <div className="flex flex-col gap-1 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900" data-testid="run-error">
          <p>{view.error.message}</p>
          <p>
            <strong>What to do:</strong> {view.error.fix}
          </p>
        </div>
      )}
      {note && (
        <p role={ended ? undefined : "status"} className={`text-sm ${ended && exp.status !== "succeeded" ? "text-red-800" : "text-slate-700"}`}>
          {note}
        </p>
      )}
    </section>
  );
}
