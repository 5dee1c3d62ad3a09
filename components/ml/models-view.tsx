"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "@/components/providers/trpc";
import { EmptyState, ErrorMessage, Loading } from "@/components/ui/status-message";
import { errorText } from "@/components/ui/error-text";
import { formatBytes } from "@/contracts/vocabulary";
import { formatMetric } from "@/components/experiment/format";

/** The exports: one per succeeded experiment with size, checksum, scores and a download link. */
export function ModelsView({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const list = useQuery(trpc.experiments.list.queryOptions({ projectId, status: ["succeeded"] }));
  const models = (list.data ?? []).filter((e) => e.exportSha256);
  return (
    <section aria-labelledby="models-heading" className="flex flex-col gap-4">
      <h2 id="models-heading" className="text-lg font-semibold">
        Models
      </h2>
      {list.isPending && <Loading label="Loading models…" />}
      {list.error && <ErrorMessage>Could not load models: {errorText(list.error)}</ErrorMessage>}
      {list.data && list.data.length === 0 && (
        <EmptyState title="No models yet">
          Every successful experiment exports its model here, with its scores against the baseline and a checksum to verify the download.
        </EmptyState>
      )}
      {models.length > 0 && (
        <ul className="flex flex-col gap-2" aria-label="Models">
          {models.map((m) => (
            <li key={m.id} className="flex flex-col gap-1 rounded-lg border border-slate-200 bg-white p-3 text-sm" data-testid="model-row">
              <Link href={`/projects/${projectId}/ml/experiments/${m.id}`} className="break-words font-medium text-blue-800 underline">
                {m.name}
              </Link>
              <p>
                {m.metric}: {formatMetric(m.candidate)} vs baseline {formatMetric(m.baseline)}
                {m.comparable === false ? " · not comparable" : m.betterThanBaseline ? " · better than baseline" : " · not better than baseline"} · {formatBytes(m.exportBytes)}
              </p>
              <p className="break-all text-xs text-slate-700">SHA-256 {m.exportSha256}</p>
              <a href={`/api/experiments/${encodeURIComponent(m.id)}/export`} className="self-start font-medium text-blue-800 underline" download>
                Download<span className="sr-only"> {m.name}</span>
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
