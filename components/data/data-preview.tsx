"use client";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc";
import { errorText } from "@/components/ui/error-text";
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
        <div className="overflow-x-auto rounded-md border border-slate-200 bg-white" tabIndex={0} role="region" aria-label={`First rows of ${name}`}>
          <table className="min-w-full text-left text-xs" data-testid="data-preview">
            <thead className="bg-slate-100">
              <tr>
                {p.header.map((h, i) => (
                  <th key={i} scope="col" className="whitespace-nowrap px-2 py-1 font-semibold">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {p.rows.map((r, i) => (
                <tr key={i} className="border-t border-slate-100">
                  {r.map((c, j) => (
                    <td key={j} className="whitespace-nowrap px-2 py-1">
                      {c}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
