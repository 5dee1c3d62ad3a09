"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import type { EditScheduleInput, ScheduleView } from "@/contracts/schedules/schedules";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { ErrorMessage } from "@/components/ui/status-message";
import { browserTimeZone, clockOfDraft, draftOfClock } from "./clock-draft";
import { ClockFields } from "./clock-fields";
import { formErrors, numberOr } from "./form-errors";
import { isConflict } from "./schedule-mutations";
import { NumberField, TextField } from "./text-field";

const capText = (x: number | null) => (x === null ? "" : String(x));

/**
 * Edits name, clock, caps and the new-rows minimum of the schedule as the card showed it:
 * that revision goes with the change, so an edit made meanwhile is refused (CONFLICT) and
 * the card reads the schedule again. Only what changed is sent; a new clock restarts the
 * next tick from now, and a raised cap lets a finished schedule go on.
 */
export function ScheduleEditForm({ schedule, onDone }: { schedule: ScheduleView; onDone: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const id = useId();
  const [seen] = useState(schedule);
  const [f, setF] = useState({ name: seen.name, maxRuns: capText(seen.maxRuns), maxComputeMinutes: capText(seen.maxComputeMinutes), minNewRows: String(seen.minNewRows) });
  const [clock, setClock] = useState(() => draftOfClock(seen.clock, browserTimeZone()));
  const [clientError, setClientError] = useState<string | null>(null);
  const set = (patch: Partial<typeof f>) => setF((old) => ({ ...old, ...patch }));
  const refresh = () => void queryClient.invalidateQueries({ queryKey: trpc.schedules.pathKey() });
  const edit = useMutation(
    trpc.schedules.edit.mutationOptions({
      onSuccess: () => (refresh(), onDone()),
      onError: (err) => isConflict(err) && refresh(),
    }),
  );

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const c = clockOfDraft(clock);
    if ("error" in c) return setClientError(c.error);
    setClientError(null);
    const change: EditScheduleInput = { id: seen.id, revision: seen.revision };
    if (f.name.trim() !== seen.name) change.name = f.name.trim();
    if (JSON.stringify(c.clock) !== JSON.stringify(seen.clock)) change.clock = c.clock;
    const maxRuns = numberOr(f.maxRuns, null);
    if (maxRuns !== seen.maxRuns) change.maxRuns = maxRuns;
    const maxComputeMinutes = numberOr(f.maxComputeMinutes, null);
    if (maxComputeMinutes !== seen.maxComputeMinutes) change.maxComputeMinutes = maxComputeMinutes;
    const minNewRows = numberOr(f.minNewRows, 0);
    if (minNewRows !== seen.minNewRows) change.minNewRows = minNewRows;
    if (Object.keys(change).length === 2) return onDone();
    edit.mutate(change);
  };

  const errors = clientError ? [clientError] : formErrors(edit.error);
  return (
    <form onSubmit={submit} aria-label={`Edit ${seen.name}`} className="flex min-w-0 flex-col gap-3 rounded-md border border-slate-300 bg-slate-50 p-3">
      <TextField id={`${id}-name`} label="Name" value={f.name} onChange={(name) => set({ name })} required autoComplete="off" />
      <ClockFields draft={clock} onChange={setClock} />
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        <NumberField id={`${id}-runs`} label="Max runs (lifetime)" value={f.maxRuns} onChange={(maxRuns) => set({ maxRuns })} placeholder="no cap" min={1} />
        <NumberField id={`${id}-compute`} label="Max compute minutes (lifetime)" value={f.maxComputeMinutes} onChange={(maxComputeMinutes) => set({ maxComputeMinutes })} placeholder="no cap" />
        <NumberField id={`${id}-rows`} label="Min new rows" value={f.minNewRows} onChange={(minNewRows) => set({ minNewRows })} />
      </div>
      {errors.length > 0 && (
        <ErrorMessage>
          {errors.map((e, i) => (
            <span key={i} className="block break-words">
              {e}
            </span>
          ))}
          {isConflict(edit.error) && <span className="block">The card now shows the schedule as it is: close this and edit again.</span>}
        </ErrorMessage>
      )}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={edit.isPending || isConflict(edit.error)}>
          {edit.isPending ? "Saving…" : "Save changes"}
        </Button>
        <Button variant="secondary" onClick={onDone}>
          {isConflict(edit.error) ? "Close" : "Cancel"}
        </Button>
      </div>
    </form>
  );
}
