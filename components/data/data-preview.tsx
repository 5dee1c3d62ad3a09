"use client";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc";
import { errorText } from "@/components/ui/error-text";
import { RowsTable } from "@/components/ui/rows-table";
import { ErrorMessage, Loading } from "@/components/ui/status-message";

/** The first rows, read straight from the store (shown while the profile runs). */
export function DataPreview({ datasetId, name }: { datasetId: string; name: string }) {
  const trpc = useTRPC();
  const preview = useQuery(trpc.datasets.preview.queryOptions({ id: datasetId }, { staleTime: Infinity }));
  const p = preview.data;
  return (
    <section aria-labelledby="preview-heading" className="flex flex-col gap-2">
      <h3 id="preview-heading" className="text-base font-semibold">
        First rows
      </h3>
      {preview.isPending && <Loading label="Reading the first rows…" />}
      {preview.error && <ErrorMessage>Could not read the first rows: {errorText(preview.error)}</ErrorMessage>}
      {p?.note && <p className="text-sm text-slate-700">{p.note}</p>}
      {p && p.kind === "table" && (
        <RowsTable header={p.header} rows={p.rows} label={`First rows of ${name}`} testId="data-preview" />
      )}
    </section>
  );
}
