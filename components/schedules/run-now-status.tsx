"use client";
import Link from "next/link";
import type { RunNowAnswer, ScheduleView } from "@/contracts/schedules/schedules";
import { admittingWords, OUTCOME_WORDS, runHref } from "./schedule-words";

/**
 * What Run now answered: refused with the reason at once, or "admitting…" and then, as the
 * schedule is read again (live events), the run's decision — started (with its
 * experiment), no-op or refused — and why.
 */
export function RunNowStatus({ answer, schedule, onDismiss }: { answer: RunNowAnswer; schedule: ScheduleView; onDismiss: () => void }) {
  const run = answer.seq === null ? null : schedule.runs.find((r) => r.seq === answer.seq);
  let words: string;
  let href: string | null = null;
  if (answer.outcome === "refused") words = `Run now was refused: ${answer.reason ?? "no reason given"}`;
  else if (!run) words = `Run ${answer.seq ?? ""}: admitting…`;
  else if (run.outcome === "admitting") words = `Run ${run.seq}: admitting… ${admittingWords(run)}`;
  else {
    words = `Run ${run.seq}: ${OUTCOME_WORDS[run.outcome]}${run.reason ? ` — ${run.reason}` : ""}`;
    href = runHref(schedule.projectId, run);
  }
  const tone = answer.outcome === "refused" || run?.outcome === "refused" ? "border-amber-300 bg-amber-50 text-amber-900" : "border-slate-300 bg-slate-50 text-slate-900";
  return (
    <div role="status" className={`flex flex-wrap items-baseline gap-x-3 gap-y-1 rounded-md border px-3 py-2 text-sm ${tone}`} data-testid="run-now-answer">
      <span className="min-w-0 break-words">{words}</span>
      {href && (
        <Link href={href} className="text-blue-800 underline">
          Open its {run?.searchId ? "search" : "experiment"}
        </Link>
      )}
      <button type="button" className="min-h-10 text-blue-800 underline" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}
