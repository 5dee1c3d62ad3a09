"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { formatBytes } from "@/contracts/vocabulary";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { errorText } from "@/components/ui/error-text";
import { ErrorMessage } from "@/components/ui/status-message";
import { QueryState } from "@/components/ui/query-state";
import type { RegistrySettingsView } from "@/components/registry/registry-types";

const MIB = 1024 ** 2;

/** Settings → Model registry: the export budget per project and the minimum useful gain the promotion gate asks for. */
export function RegistrySettings() {
  const trpc = useTRPC();
  const settings = useQuery(trpc.models.settings.queryOptions());
  const [savedRevision, setSavedRevision] = useState<number | null>(null);
  return (
    <section aria-labelledby="registry-settings-heading" className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="registry-settings-heading" className="text-lg font-semibold">
        Model registry
      </h2>
      <QueryState query={settings} loading="Loading the registry settings…" failure="Could not load the registry settings" />
      {settings.data && <RegistrySettingsForm key={settings.data.revision} current={settings.data} onSaved={setSavedRevision} />}
      {settings.data && savedRevision === settings.data.revision && (
        <p role="status" className="text-sm text-green-800">
          Saved. Registering and promoting use these values from now on.
        </p>
      )}
    </section>
  );
}

/** Keyed by revision: a newer saved revision starts the form afresh from what was saved. */
function RegistrySettingsForm({ current, onSaved }: { current: RegistrySettingsView; onSaved: (revision: number) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [budgetMib, setBudgetMib] = useState(String(current.values.exportBytesPerProject / MIB));
  const [gain, setGain] = useState(String(current.values.minUsefulGain));
  const update = useMutation(
    trpc.models.updateSettings.mutationOptions({
      onSuccess: (v) => {
        onSaved(v.revision);
        queryClient.setQueryData(trpc.models.settings.queryKey(), v);
        // The retention preview reads the budget.
        void queryClient.invalidateQueries({ queryKey: trpc.models.retentionPreview.pathKey() });
      },
    }),
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    update.mutate({ revision: current.revision, values: { exportBytesPerProject: Math.round(Number(budgetMib) * MIB), minUsefulGain: Number(gain) } });
  };
  const field = "min-h-10 rounded-md border border-slate-400 px-3 py-2 text-sm";
  return (
    <form onSubmit={submit} className="flex flex-col gap-3">
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="flex flex-col gap-1">
          <label htmlFor="registry-budget" className="text-sm font-medium">
            Registered exports per project (MiB)
          </label>
          <input id="registry-budget" aria-describedby="registry-budget-help" type="number" min="0.001" step="any" required value={budgetMib} onChange={(e) => setBudgetMib(e.target.value)} className={field} />
          <p id="registry-budget-help" className="text-xs text-slate-700">
            Over it, registering a version is refused and names what could be removed. Default {formatBytes(current.defaults.exportBytesPerProject)}.
          </p>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor="registry-gain" className="text-sm font-medium">
            Minimum useful gain
          </label>
          <input id="registry-gain" aria-describedby="registry-gain-help" type="number" min="0" step="any" required value={gain} onChange={(e) => setGain(e.target.value)} className={field} />
          <p id="registry-gain-help" className="text-xs text-slate-700">
            How much better, on the primary metric in its own units, a comparable version must be to be promoted without an acknowledgement. Default {current.defaults.minUsefulGain}.
          </p>
        </div>
      </div>
      <Button type="submit" className="self-start" disabled={update.isPending}>
        {update.isPending ? "Saving…" : "Save registry settings"}
      </Button>
      {update.error && <ErrorMessage>Not saved: {errorText(update.error)}</ErrorMessage>}
    </form>
  );
}
