"use client";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc";
import { ErrorMessage, Loading } from "@/components/ui/status-message";
import { errorText } from "@/components/ui/error-text";
import { RowsTable } from "@/components/ui/rows-table";
import { formatBytes } from "@/contracts/vocabulary";

/** The chosen dataset: its state (profiling, with setup progress on first use) and its first rows. */
export function DataPreview({ datasetId }: { datasetId: string }) {
  const trpc = useTRPC();
  const dataset = useQuery(trpc.datasets.get.queryOptions({ id: datasetId }));
  const status = useQuery({
    ...trpc.datasets.profileStatus.queryOptions({ id: datasetId }),
    refetchInterval: (q) => (q.state.data?.status === "profiling" ? 3000 : false),
  });
  const preview = useQuery(trpc.datasets.preview.queryOptions({ id: datasetId }));
  if (dataset.isPending) return <Loading label="Loading the dataset…" />;
  if (dataset.error) return <ErrorMessage>Could not load the dataset: {errorText(dataset.error)}</ErrorMessage>;
  const d = dataset.data;
  const setup = status.data?.setup;
  return (
    <section aria-labelledby="preview-heading" className="flex flex-col gap-2">
      <h3 id="preview-heading" className="text-base font-semibold">
        {d.name}
      </h3>
      <p className="text-sm text-slate-700">
        {formatBytes(d.bytes)}
        {d.rowCount !== null && ` · ${d.rowCount.toLocaleString()} rows`}
        {d.columnCount !== null && ` · ${d.columnCount} columns`} · {d.sourceKind === "upload" ? "uploaded" : `from ${d.sourceName}`}
      </p>
      {(status.data?.status ?? d.status) === "profiling" && (
        <p role="status" className="text-sm text-slate-700">
          Reading the file (profile)…{setup && ` Setting up the data tools on This computer (first use): ${setup.state}.`}
        </p>
      )}
      {setup?.logTail && (
        <pre className="max-h-32 overflow-auto rounded bg-slate-900 p-2 text-xs text-slate-100" aria-label="Setup log">
          {setup.logTail}
        </pre>
      )}
      {(status.data?.status ?? d.status) === "failed" && <ErrorMessage>This file could not be read: {(status.data?.error ?? d.error)?.message}</ErrorMessage>}
      {preview.isPending && <Loading label="Loading the first rows…" />}
      {preview.error && <ErrorMessage>Could not show the first rows: {errorText(preview.error)}</ErrorMessage>}
      {preview.data && preview.data.kind === "binary" && <p className="text-sm text-slate-700">{preview.data.note ?? "No text preview for this file type."}</p>}
      {preview.data && preview.data.kind === "table" && (
        <RowsTable
          header={preview.data.header}
          rows={preview.data.rows.slice(0, 10)}
          label="First rows of the data"
          caption={`First ${preview.data.rows.length} rows of ${d.name}`}
        />
      )}
    </section>
  );
}
