"use client";
import Link from "next/link";
import { useId, useState } from "react";
import type { ScheduleView } from "@/contracts/schedules/schedules";
import { FactList } from "@/components/ui/fact-list";
import { ScheduleActions } from "./schedule-actions";
import { ScheduleEditForm } from "./schedule-edit-form";
import { ScheduleRuns } from "./schedule-runs";
import { capsWords, registrableRun, relativeWords, runHref, sourceWords, specWords, stateWords } from "./schedule-words";
import { useNow } from "./use-now";

const STATE_TONE: Record<ScheduleView["state"], string> = {
  active: "bg-green-100 text-green-900",
  paused: "bg-amber-100 text-amber-900",
  finished: "bg-slate-200 text-slate-900",
};

/** One schedule: state, clock and next tick, source, what it trains, caps used, the last result, its runs, and its actions. */
export function ScheduleCard({ schedule: s }: { schedule: ScheduleView }) {
  const headingId = useId();
  const [editing, setEditing] = useState(false);
  const caps = capsWords(s);
  const best = registrableRun(s.runs);
  return (
    <article aria-labelledby={headingId} className="flex min-w-0 flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4" data-testid="schedule-card">
      <div className="flex min-w-0 flex-wrap items-baseline gap-x-3 gap-y-1">
        <h3 id={headingId} className="min-w-0 break-words text-base font-semibold">
          {s.name}
        </h3>
        <span className={`rounded px-2 py-0.5 text-sm ${STATE_TONE[s.state]}`} data-testid="schedule-state">
          {stateWords(s)}
        </span>
        <span className="text-sm text-slate-700">{s.clockWords}</span>
      </div>
      <NextTick s={s} />
      <FactList
        label={`About ${s.name}`}
        rows={[
          ["Source", sourceWords(s.source, s.computer)],
          ["Each run", specWords(s.spec)],
          ["Runs", caps.runs],
          ["Compute", caps.compute],
          ["New rows", caps.minNewRows],
        ]}
      />
      {s.lastResult && (
        <p className="break-words text-sm text-slate-900" data-testid="schedule-last-result">
          <span className="font-medium">Last result:</span> {s.lastResult}
          {best && (
            <>
              {" "}
              <Link href={runHref(s.projectId, best)!} className="text-blue-800 underline">
                Open run {best.seq}’s {best.searchId ? "search" : "experiment"} to register it
              </Link>
            </>
          )}
        </p>
      )}
      <ScheduleRuns projectId={s.projectId} runs={s.runs} label={`Runs of ${s.name}, oldest first`} />
      <ScheduleActions schedule={s} headingId={headingId} editing={editing} onEdit={() => setEditing(true)} />
      {editing && <ScheduleEditForm schedule={s} onDone={() => setEditing(false)} />}
    </article>
  );
}

function NextTick({ s }: { s: ScheduleView }) {
  const now = useNow();
  return (
    <p className="text-sm text-slate-800" data-testid="schedule-next-tick">
      {s.nextSlotAt ? (
        <>
          Next tick:{" "}
          <time dateTime={s.nextSlotAt}>{new Date(s.nextSlotAt).toLocaleString(undefined, { weekday: "short", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" })}</time>{" "}
          ({relativeWords(s.nextSlotAt, now)})
        </>
      ) : (
        `No next tick while ${s.state}.`
      )}
      {s.pendingLatest && " A run on the latest data follows the one training now."}
    </p>
  );
}
