"use client";
import { useState } from "react";
import type { ScheduleView } from "@/contracts/schedules/schedules";
import { Sheet } from "@/components/registry/sheet";
import { Button } from "@/components/ui/button";
import { errorText } from "@/components/ui/error-text";
import { ErrorMessage } from "@/components/ui/status-message";
import { RunNowStatus } from "./run-now-status";
import { isConflict, useScheduleMutations } from "./schedule-mutations";
import { useNarrowScreen } from "./use-narrow-screen";

type Asked = "pause" | "runNow" | "remove";

const QUESTIONS: Record<Asked, { title: (name: string) => string; body: string; yes: string }> = {
  pause: { title: (n) => `Pause “${n}”?`, body: "No new run starts until you resume it; a run already training goes on. Slots missed while paused are not made up.", yes: "Pause it" },
  runNow: { title: (n) => `Run “${n}” now?`, body: "It reads the file now and trains if the data changed since the last run; the answer shows on the card.", yes: "Run now" },
  remove: { title: (n) => `Remove “${n}”?`, body: "The schedule and its list of runs go. The experiments and searches it started stay, with their results.", yes: "Remove it" },
};

/**
 * Pause or Resume, Run now, Edit and Remove for one schedule. On a phone (under 640 px)
 * Pause and Run now each ask once in a dialog, so a stray tap does nothing; Remove always
 * asks. Each sends the revision the card shows; a CONFLICT says the card was stale and
 * the card reads the schedule again. The buttons are described by the card's heading
 * (the schedule's name), so a list of buttons read aloud says which schedule each is for.
 */
export function ScheduleActions({ schedule, headingId, editing, onEdit }: { schedule: ScheduleView; headingId: string; editing: boolean; onEdit: () => void }) {
  const narrow = useNarrowScreen();
  const m = useScheduleMutations(schedule);
  const [asked, setAsked] = useState<Asked | null>(null);
  const act = (what: Asked) => {
    setAsked(null);
    m[what]();
  };
  const ask = (what: Asked) => (narrow || what === "remove" ? setAsked(what) : act(what));
  const name = schedule.name;
  return (
    <div className="flex min-w-0 flex-col gap-2">
      <div className="flex flex-wrap gap-2">
        {schedule.state === "active" && (
          <Button variant="secondary" disabled={m.busy} onClick={() => ask("pause")} aria-describedby={headingId}>
            {m.pending.pause ? "Pausing…" : "Pause"}
          </Button>
        )}
        {schedule.state === "paused" && (
          <Button disabled={m.busy} onClick={m.resume} aria-describedby={headingId}>
            {m.pending.resume ? "Resuming…" : "Resume"}
          </Button>
        )}
        <Button variant="secondary" disabled={m.busy} onClick={() => ask("runNow")} aria-describedby={headingId}>
          {m.pending.runNow ? "Asking…" : "Run now"}
        </Button>
        <Button variant="secondary" disabled={editing} onClick={onEdit} aria-describedby={headingId}>
          Edit
        </Button>
        <Button variant="secondary" disabled={m.busy} onClick={() => ask("remove")} aria-describedby={headingId}>
          {m.pending.remove ? "Removing…" : "Remove…"}
        </Button>
      </div>
      {m.answer && <RunNowStatus answer={m.answer} schedule={schedule} onDismiss={m.dismiss} />}
      {m.error && (
        <ErrorMessage>
          {errorText(m.error)}
          {isConflict(m.error) && " The card now shows it as it is: choose again."}
        </ErrorMessage>
      )}
      {asked && (
        <Sheet title={QUESTIONS[asked].title(name)} onClose={() => setAsked(null)}>
          <p className="mb-3">{QUESTIONS[asked].body}</p>
          <div className="flex flex-wrap gap-2">
            <Button variant={asked === "remove" ? "danger" : "primary"} onClick={() => act(asked)}>
              {QUESTIONS[asked].yes}
            </Button>
            <Button variant="secondary" onClick={() => setAsked(null)}>
              Not now
            </Button>
          </div>
        </Sheet>
      )}
    </div>
  );
}
