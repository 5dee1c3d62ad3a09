"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { SettingsView } from "@/server/settings/settings.schema";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { errorText } from "@/components/ui/error-text";
import { ErrorMessage } from "@/components/ui/status-message";
import { QueryState } from "@/components/ui/query-state";

const MIB = 1024 ** 2;
const GIB = 1024 ** 3;

/**
 * The server's reason when it refused a folder: the domain error names the field
 * (details.field), and zod names it by path (values.allowedRoots.N).
 */
export function allowedRootsError(err: unknown): string | null {
  const data = (err as { data?: { details?: { field?: unknown } | null; zodIssues?: { path: (string | number)[]; message: string }[] | null } } | null)?.data;
  if (data?.details?.field === "allowedRoots") return (err as Error).message;
  const issue = data?.zodIssues?.find((i) => i.path[0] === "values" && i.path[1] === "allowedRoots");
  return issue ? issue.message : null;
}

/** Settings → Data: allowed folders for registering files by path, the upload cap and the file limits. */
export function AllowedRoots() {
  const trpc = useTRPC();
  const settings = useQuery(trpc.settings.get.queryOptions());
  const [savedRevision, setSavedRevision] = useState<number | null>(null);
  return (
    <section aria-labelledby="data-settings-heading" className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="data-settings-heading" className="text-lg font-semibold">
        Data
      </h2>
      <QueryState query={settings} loading="Loading the data settings…" failure="Could not load the data settings" />
      {settings.data && <DataSettingsForm key={settings.data.revision} current={settings.data} onSaved={setSavedRevision} />}
      {settings.data && savedRevision === settings.data.revision && (
        <p role="status" className="text-sm text-green-800">
          Saved. The worker on This computer now allows exactly these folders.
        </p>
      )}
    </section>
  );
}

/** Keyed by revision: a newer saved revision starts the form afresh from what was saved. */
function DataSettingsForm({ current, onSaved }: { current: SettingsView; onSaved: (revision: number) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const v = current.values;
  const [roots, setRoots] = useState(v.allowedRoots.join("\n"));
  const [capGib, setCapGib] = useState(String(v.uploadMaxBytes / GIB));
  const [lineMib, setLineMib] = useState(String(v.maxLineBytes / MIB));
  const [columns, setColumns] = useState(String(v.maxColumns));
  const [gzGib, setGzGib] = useState(String(v.maxDecompressedBytes / GIB));
  const update = useMutation(
    trpc.settings.update.mutationOptions({
      onSuccess: (v) => {
        onSaved(v.revision);
        queryClient.setQueryData(trpc.settings.get.queryKey(), v);
      },
    }),
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    update.mutate({
      revision: current.revision,
      values: {
        allowedRoots: roots.split("\n").map((r) => r.trim()).filter(Boolean),
        uploadMaxBytes: Math.round(Number(capGib) * GIB),
        maxLineBytes: Math.round(Number(lineMib) * MIB),
        maxColumns: Math.round(Number(columns)),
        maxDecompressedBytes: Math.round(Number(gzGib) * GIB),
      },
    });
  };
  const field = "min-h-10 rounded-md border border-slate-400 px-3 py-2 text-sm";
  const rootsError = allowedRootsError(update.error);
  const rootsDescribedBy = ["allowed-roots-help", current.refusedRoots.length ? "allowed-roots-refused" : "", rootsError ? "allowed-roots-error" : ""].filter(Boolean).join(" ");
  return (
    <form onSubmit={submit} className="flex flex-col gap-3">
      <label htmlFor="allowed-roots" className="text-sm font-medium">
        Allowed folders (one per line)
      </label>
      <p id="allowed-roots-help" className="text-sm text-slate-700">
        {current.explanation}
      </p>
      <textarea
        id="allowed-roots"
        aria-describedby={rootsDescribedBy}
        aria-invalid={rootsError ? true : undefined}
        rows={3}
        value={roots}
        onChange={(e) => setRoots(e.target.value)}
        placeholder="/data/shared"
        className={field}
      />
      {rootsError && (
        <p id="allowed-roots-error" role="alert" className="text-sm text-red-800">
          {rootsError}
        </p>
      )}
      {current.refusedRoots.length > 0 && (
        <div id="allowed-roots-refused" className="text-sm text-amber-900">
          <p>These saved folders are no longer allowed and are not in force:</p>
          <ul className="list-disc pl-5">
            {current.refusedRoots.map((r) => (
              <li key={r.root} className="break-words">
                {r.root}: {r.reason}
              </li>
            ))}
          </ul>
        </div>
      )}
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="flex flex-col gap-1">
          <label htmlFor="upload-cap" className="text-sm font-medium">Largest upload (GiB)</label>
          <input id="upload-cap" type="number" min="0.001" step="any" value={capGib} onChange={(e) => setCapGib(e.target.value)} className={field} />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor="line-cap" className="text-sm font-medium">Longest line (MiB)</label>
          <input id="line-cap" type="number" min="0.001" step="any" value={lineMib} onChange={(e) => setLineMib(e.target.value)} className={field} />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor="column-cap" className="text-sm font-medium">Most columns</label>
          <input id="column-cap" type="number" min="1" step="1" value={columns} onChange={(e) => setColumns(e.target.value)} className={field} />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor="gzip-cap" className="text-sm font-medium">Largest decompressed gzip file (GiB)</label>
          <input id="gzip-cap" type="number" min="0.001" step="any" value={gzGib} onChange={(e) => setGzGib(e.target.value)} className={field} />
        </div>
      </div>
      <Button type="submit" className="self-start" disabled={update.isPending}>
        {update.isPending ? "Saving…" : "Save data settings"}
      </Button>
      {!current.workerConfigInSync && <p className="text-sm text-amber-800">The worker’s configuration could not be updated; paths may be refused until it is.</p>}
      {update.error && !rootsError && <ErrorMessage>{errorText(update.error)}</ErrorMessage>}
    </form>
  );
}
