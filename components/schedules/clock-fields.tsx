"use client";
import { useId, useMemo } from "react";
import { SelectField } from "@/components/ui/select-field";
import { timeZones, type ClockDraft } from "./clock-draft";
import { NumberField, TextField } from "./text-field";

/** The clock part of the new-schedule and edit forms: every N hours/minutes, or daily at HH:MM in a time zone. */
export function ClockFields({ draft, onChange }: { draft: ClockDraft; onChange: (d: ClockDraft) => void }) {
  const id = useId();
  const zones = useMemo(() => timeZones(draft.tz), [draft.tz]);
  const set = (patch: Partial<ClockDraft>) => onChange({ ...draft, ...patch });
  return (
    <fieldset className="flex min-w-0 flex-col gap-3 rounded-md border border-slate-300 p-3">
      <legend className="px-1 text-sm font-medium text-slate-800">When it runs</legend>
      <div className="flex flex-wrap gap-x-4 gap-y-2 text-sm">
        <label className="flex min-h-10 items-center gap-2">
          <input type="radio" name={`${id}-kind`} className="h-5 w-5" checked={draft.kind === "every"} onChange={() => set({ kind: "every" })} />
          Every N hours or minutes
        </label>
        <label className="flex min-h-10 items-center gap-2">
          <input type="radio" name={`${id}-kind`} className="h-5 w-5" checked={draft.kind === "daily"} onChange={() => set({ kind: "daily" })} />
          Daily at a time
        </label>
      </div>
      {draft.kind === "every" ? (
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
          <NumberField id={`${id}-every`} label="Every" value={draft.every} onChange={(every) => set({ every })} min={1} required />
          <SelectField id={`${id}-unit`} label="Unit" value={draft.unit} onChange={(unit) => set({ unit })} options={[["hours", "hours"], ["minutes", "minutes"]] as const} />
        </div>
      ) : (
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
          <TextField id={`${id}-at`} label="At (HH:MM)" type="time" value={draft.at} onChange={(at) => set({ at })} required />
          <SelectField id={`${id}-tz`} label="Time zone" value={draft.tz} onChange={(tz) => set({ tz })} options={zones.map((z) => [z, z] as const)} className="w-full min-w-0" />
          <label className="flex min-h-10 items-center gap-2 text-sm sm:col-span-2">
            <input type="checkbox" className="h-5 w-5" checked={draft.weekdays} onChange={(e) => set({ weekdays: e.target.checked })} />
            Weekdays only (Monday to Friday)
          </label>
        </div>
      )}
    </fieldset>
  );
}
