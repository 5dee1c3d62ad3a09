"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { SelectField } from "@/components/ui/select-field";
import { EmptyState } from "@/components/ui/status-message";
import { QueryState } from "@/components/ui/query-state";
import { TabHeading } from "./tab-heading";
import { experimentLifecycle } from "@/contracts/lifecycles";
import { experimentStatusLabel } from "@/contracts/vocabulary";
import { formatDuration, formatMetric } from "@/components/experiment/format";

// "Failed or stopped": every way of not succeeding, an outcome not known yet included.
const NOT_SUCCEEDED = experimentLifecycle.states.filter((s) => s !== "succeeded" && s !== "running");
const FILTERS = [
  { key: "all", label: "All", statuses: undefined },
  { key: "running", label: "Running", statuses: ["running"] },
  { key: "succeeded", label: "Succeeded", statuses: ["succeeded"] },
  { key: "failed", label: "Failed or stopped", statuses: NOT_SUCCEEDED },
] as const;

/** Every experiment of the project with status, metric and time; filterable by status. */
export function ExperimentsView({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const [filter, setFilter] = useState<(typeof FILTERS)[number]["key"]>("all");
  const statuses = FILTERS.find((f) => f.key === filter)?.statuses;
  const list = useQuery(trpc.experiments.list.queryOptions({ projectId, status: statuses ? [...statuses] : undefined }));
  return (
    <section aria-labelledby="experiments-heading" className="flex flex-col gap-4">
      <TabHeading id="experiments-heading" title="Experiments" projectId={projectId} />
      <SelectField id="experiment-filter" label="Show" className="max-w-xs" value={filter} onChange={setFilter} options={FILTERS.map((f) => [f.key, f.label] as const)} />
      <QueryState query={list} loading="Loading experiments…" failure="Could not load experiments" />
      {list.data && list.data.length === 0 && (
        <EmptyState title={filter === "all" ? "No experiments yet" : "No experiments match this filter"}>
          {filter === "all" ? "Each training run becomes an experiment listed here with its status, score and time. Start one with “Train a prediction model”." : "Choose “All” to see every experiment."}
        </EmptyState>
      )}
      {list.data && list.data.length > 0 && (
        <ul className="flex flex-col gap-2" aria-label="Experiments">
          {list.data.map((e) => (
            <li key={e.id} className="flex flex-col gap-1 rounded-lg border border-slate-200 bg-white p-3" data-testid="experiment-row">
              <Link href={`/projects/${projectId}/ml/experiments/${e.id}`} className="break-words font-medium text-blue-800 underline-offset-4 hover:underline">
                {e.name}
              </Link>
              <p className="text-sm text-slate-700">
                <span className="font-medium text-slate-900">{experimentStatusLabel(e.status)}</span> ·{" "}
                {e.kind === "finetune" ? (
                  <>
                    Fine-tuned {e.target} · loss per answer token {formatMetric(e.candidate)} (base {formatMetric(e.baseline)})
                    {e.betterThanBaseline === true && " · better than base"}
                    {e.betterThanBaseline === false && " · not better than base"}
                  </>
                ) : (
                  <>
                    Prediction model · {e.metric}: {formatMetric(e.candidate)} (baseline {formatMetric(e.baseline)})
                    {e.betterThanBaseline === true && " · better than baseline"}
                    {e.betterThanBaseline === false && " · not better than baseline"}
                  </>
                )}{" "}
                · {formatDuration(e.seconds)} · started {new Date(e.createdAt).toLocaleString()}
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
