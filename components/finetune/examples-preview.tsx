"use client";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc";
import { QueryState } from "@/components/ui/query-state";
import { ErrorMessage } from "@/components/ui/status-message";
import { formatBytes } from "@/contracts/vocabulary";

/** A chosen JSONL dataset: its state while it is read, then its first examples as conversations. */
export function ExamplesPreview({ datasetId, label }: { datasetId: string; label: string }) {
  const trpc = useTRPC();
  const dataset = useQuery({
    ...trpc.datasets.get.queryOptions({ id: datasetId }),
    refetchInterval: (q) => (q.state.data?.status === "profiling" ? 2000 : false),
  });
  const d = dataset.data;
  return (
    <section aria-label={label} className="flex flex-col gap-2" data-testid="examples-preview">
      <QueryState query={dataset} loading="Loading the examples…" failure="Could not load the examples" />
      {d && (
        <>
          <p className="break-words text-sm text-slate-800">
            <span className="font-medium">{d.name}</span> · {formatBytes(d.bytes)}
            {d.rowCount !== null && ` · ${d.rowCount.toLocaleString()} lines`}
          </p>
          {d.status === "profiling" && (
            <p role="status" className="text-sm text-slate-700">
              Reading the examples…
            </p>
          )}
          {d.status === "failed" && <ErrorMessage>This file could not be read: {d.error?.message}</ErrorMessage>}
        </>
      )}
    </section>
  );
}
