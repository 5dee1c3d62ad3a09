"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState, type FormEvent } from "react";
import type { CreateScheduleInput } from "@/contracts/schedules/schedules";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { ErrorMessage } from "@/components/ui/status-message";
import { SelectField } from "@/components/ui/select-field";
import { browserTimeZone, clockOfDraft, newClockDraft } from "./clock-draft";
import { ClockFields } from "./clock-fields";
import { formErrors, newOpId, numberOr } from "./form-errors";
import { NumberField, TextField } from "./text-field";

const MODES = [
  ["quick", "Quick baseline"],
  ["improve", "Improve within a budget"],
] as const;

/**
 * A new schedule: the file and the computer it is on, what to predict, the clock, what a
 * run may spend, and the lifetime caps. The computer left at "project default" is not
 * sent, so the server picks the project's default. One op id per opened form: a second
 * submit of the same form answers the schedule the first one made.
 */
export function ScheduleCreateForm({ projectId, onDone }: { projectId: string; onDone: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [opId] = useState(newOpId);
  const targets = useQuery(trpc.targets.list.queryOptions());
  const project = useQuery(trpc.projects.get.queryOptions({ id: projectId }));
  const [f, setF] = useState({ name: "", path: "", computerId: "", target: "", mode: "quick" as "quick" | "improve", maxMinutes: "", maxTrials: "", maxRuns: "", maxComputeMinutes: "", minNewRows: "0", stableSeconds: "10" });
  const [clock, setClock] = useState(() => newClockDraft(browserTimeZone()));
  const [clientError, setClientError] = useState<string | null>(null);
  const set = (patch: Partial<typeof f>) => setF((old) => ({ ...old, ...patch }));
  const create = useMutation(
    trpc.schedules.create.mutationOptions({
      onSuccess: () => {
        void queryClient.invalidateQueries({ queryKey: trpc.schedules.pathKey() });
        onDone();
      },
    }),
  );
  const usable = (targets.data ?? []).filter((t) => t.enabled);
  const defaultName = usable.find((t) => t.id === project.data?.defaultTargetId)?.name ?? usable.find((t) => t.thisComputer)?.name ?? "This computer";

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const c = clockOfDraft(clock);
    if ("error" in c) return setClientError(c.error);
    setClientError(null);
    const input: CreateScheduleInput = {
      opId,
      projectId,
      ...(f.name.trim() ? { name: f.name.trim() } : {}),
      source: { kind: "path", path: f.path, stableSeconds: numberOr(f.stableSeconds, 10), ...(f.computerId ? { computerId: f.computerId } : {}) },
      spec: {
        target: f.target.trim(),
        mode: f.mode,
        ...(f.maxMinutes.trim() ? { maxMinutes: Number(f.maxMinutes) } : {}),
        ...(f.mode === "improve" && f.maxTrials.trim() ? { maxTrials: Number(f.maxTrials) } : {}),
      },
      clock: c.clock,
      maxRuns: numberOr(f.maxRuns, null),
      maxComputeMinutes: numberOr(f.maxComputeMinutes, null),
      minNewRows: numberOr(f.minNewRows, 0),
    };
    create.mutate(input);
  };

  const errors = clientError ? [clientError] : formErrors(create.error);
  return (
    <form onSubmit={submit} aria-labelledby="new-schedule-heading" className="flex min-w-0 flex-col gap-4 rounded-lg border border-slate-200 bg-white p-4">
      <h3 id="new-schedule-heading" className="text-base font-semibold">
        New schedule
      </h3>
      <TextField
        id="schedule-path"
        label="File path on the computer"
        value={f.path}
        onChange={(path) => set({ path })}
        placeholder="/data/sales/latest.csv"
        required
        autoComplete="off"
        hint={
          <>
            The file must be inside a folder allowed under{" "}
            <Link href="/settings" className="text-blue-800 underline">
              Settings → Data → Allowed folders
            </Link>{" "}
            (for This computer; an SSH server lists its own). Each run reads it again.
          </>
        }
      />
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <SelectField
          id="schedule-computer"
          label="Computer"
          value={f.computerId}
          onChange={(computerId) => set({ computerId })}
          placeholder={`Project default (${defaultName})`}
          options={usable.map((t) => [t.id, t.name] as const)}
          className="w-full min-w-0"
        />
        <TextField id="schedule-target" label="Column to predict (target)" value={f.target} onChange={(target) => set({ target })} required autoComplete="off" />
        <SelectField id="schedule-mode" label="Mode" value={f.mode} onChange={(mode) => set({ mode })} options={MODES} />
        <NumberField id="schedule-max-minutes" label="Max minutes per run" value={f.maxMinutes} onChange={(maxMinutes) => set({ maxMinutes })} placeholder={f.mode === "quick" ? "5" : "10"} />
        {f.mode === "improve" && <NumberField id="schedule-max-trials" label="Max trials per run" value={f.maxTrials} onChange={(maxTrials) => set({ maxTrials })} placeholder="10" min={1} />}
      </div>
      <ClockFields draft={clock} onChange={setClock} />
      <fieldset className="grid min-w-0 grid-cols-1 gap-3 rounded-md border border-slate-300 p-3 sm:grid-cols-2">
        <legend className="px-1 text-sm font-medium text-slate-800">Limits</legend>
        <NumberField id="schedule-max-runs" label="Max runs (lifetime)" value={f.maxRuns} onChange={(maxRuns) => set({ maxRuns })} placeholder="no cap" min={1} />
        <NumberField id="schedule-max-compute" label="Max compute minutes (lifetime)" value={f.maxComputeMinutes} onChange={(maxComputeMinutes) => set({ maxComputeMinutes })} placeholder="no cap" />
        <NumberField id="schedule-min-rows" label="Min new rows" value={f.minNewRows} onChange={(minNewRows) => set({ minNewRows })} hint="Fewer new rows since the last run: a no-op." />
        <NumberField id="schedule-stable" label="Stable for (seconds)" value={f.stableSeconds} onChange={(stableSeconds) => set({ stableSeconds })} min={1} hint="A file still changing this long is not used yet." />
      </fieldset>
      <TextField id="schedule-name" label="Name (optional)" value={f.name} onChange={(name) => set({ name })} placeholder="species from latest.csv" autoComplete="off" />
      {errors.length > 0 && (
        <ErrorMessage>
          {errors.map((e, i) => (
            <span key={i} className="block break-words">
              {e}
            </span>
          ))}
        </ErrorMessage>
      )}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? "Checking the file…" : "Create schedule"}
        </Button>
        <Button variant="secondary" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
