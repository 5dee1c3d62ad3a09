"use client";
import Link from "next/link";
import { useState } from "react";
import type { ScheduleRunView } from "@/contracts/schedules/schedules";
import { admittingWords, groupRuns, OUTCOME_WORDS, runHref, skippedWords } from "./schedule-words";

const TRIGGER_WORDS: Record<ScheduleRunView["trigger"], string> = { clock: "on the clock", manual: "run now", latest: "latest data" };

/**
 * A schedule's runs, oldest first, one line each: a started run with its training's
 * status and result (linking to its experiment or search), an admitting run with its step;
 * two or more no-ops or coalesced ticks in a row are one line that opens to show them.
 */
export function ScheduleRuns({ projectId, runs, label }: { projectId: string; runs: readonly ScheduleRunView[]; label: string }) {
  if (runs.length === 0) return <p className="text-sm text-slate-700">No runs yet.</p>;
  return (
    <ol aria-label={label} className="flex min-w-0 flex-col divide-y divide-slate-100 rounded-md border border-slate-200 text-sm">
      {groupRuns(runs).map((g) =>
        g.kind === "run" ? (
          <li key={g.run.seq} className="px-3 py-2" data-testid="schedule-run">
            <RunLine projectId={projectId} run={g.run} />
          </li>
        ) : (
          <SkippedRuns key={g.runs[0]!.seq} projectId={projectId} runs={g.runs} />
        ),
      )}
    </ol>
  );
}

function SkippedRuns({ projectId, runs }: { projectId: string; runs: ScheduleRunView[] }) {
  const [open, setOpen] = useState(false);
  const first = runs[0]!.seq;
  const last = runs[runs.length - 1]!.seq;
  return (
    <li className="px-3 py-2" data-testid="schedule-run-group">
      <button type="button" className="min-h-10 text-left text-slate-800 underline decoration-dotted underline-offset-4" aria-expanded={open} aria-controls={`skipped-${first}`} onClick={() => setOpen(!open)}>
        Runs {first}–{last}: {skippedWords(runs)}
      </button>
      {open && (
        <ol id={`skipped-${first}`} className="mt-1 flex flex-col gap-1 border-l-2 border-slate-200 pl-3">
          {runs.map((r) => (
            <li key={r.seq}>
              <RunLine projectId={projectId} run={r} />
            </li>
          ))}
        </ol>
      )}
    </li>
  );
}

function RunLine({ projectId, run }: { projectId: string; run: ScheduleRunView }) {
  const href = runHref(projectId, run);
  const when = new Date(run.createdAt).toLocaleString(undefined, { dateStyle: "short", timeStyle: "short" });
  const detail = run.outcome === "admitting" ? admittingWords(run) : run.outcome === "started" ? (run.result ?? run.reason) : run.reason;
  return (
    <div className="flex min-w-0 flex-wrap items-baseline gap-x-2 gap-y-0.5">
      <span className="font-medium text-slate-900">Run {run.seq}</span>
      <span className="rounded bg-slate-100 px-1.5 text-slate-900" data-testid="run-outcome">
        {OUTCOME_WORDS[run.outcome]}
      </span>
      {run.status && <span className="text-slate-700">training {run.status.replace("_", " ")}</span>}
      <span className="text-slate-700">
        {TRIGGER_WORDS[run.trigger]}, {when}
      </span>
      {detail && <span className="min-w-0 basis-full break-words text-slate-800">{detail}</span>}
      {href && (
        <Link href={href} className="text-blue-800 underline">
          {run.searchId ? `Search of run ${run.seq}` : `Experiment of run ${run.seq}`}
        </Link>
      )}
    </div>
  );
}
