"use client";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc";
import { QueryState } from "@/components/ui/query-state";
import { ErrorMessage } from "@/components/ui/status-message";
import { formatBytes } from "@/contracts/vocabulary";
import { Conversations } from "./conversation";

/** A chosen JSONL dataset: its state while it is read, then its first examples as conversations. */
export function ExamplesPreview({ datasetId, label }: { datasetId: string; label: string }) {
  const trpc = useTRPC();
  const dataset = useQuery({
    ...trpc.datasets.get.queryOptions({ id: datasetId }),
    refetchInterval: (q) => (q.state.data?.status === "profiling" ? 2000 : false),
  });
  const d = dataset.data;
  const ready = d?.status === "ready";
  // Read once the examples are profiled: before, the preview has no conversations yet.
  const preview = useQuery({ ...trpc.datasets.preview.queryOptions({ id: datasetId }), enabled: ready });
  const p = preview.data;
  return (
    <section aria-label={label} className="flex min-w-0 flex-col gap-2" data-testid="examples-preview">
      <QueryState query={dataset} loading="Loading the examples…" failure="Could not load the examples" />
      {d && (
        <>
          <p className="break-words text-sm text-slate-800">
            <span className="font-medium">{d.name}</span> · {formatBytes(d.bytes)}
            {d.rowCount !== null && ` · ${d.rowCount.toLocaleString()} usable examples`}
          </p>
          {d.kind !== "examples" && <ErrorMessage>{d.name} is a table, not a file of examples: choose or upload a JSONL file.</ErrorMessage>}
          {d.status === "profiling" && (
            <p role="status" className="text-sm text-slate-700">
              Reading the examples…
            </p>
          )}
          {d.status === "failed" && <ErrorMessage>This file could not be read: {d.error?.message}</ErrorMessage>}
        </>
      )}
      {ready && <QueryState query={preview} loading="Loading the first examples…" failure="Could not show the first examples" />}
      {p?.kind === "examples" && (
        <>
          {p.note && <p className="text-sm text-slate-700">{p.note}</p>}
          <Conversations examples={p.conversations} label={`${label}: first examples`} />
        </>
      )}
    </section>
  );
}
