"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "@/components/providers/trpc";
import { EmptyState } from "@/components/ui/status-message";
import { QueryState } from "@/components/ui/query-state";
import { TabHeading } from "@/components/ml/tab-heading";
import { formatDuration } from "@/components/experiment/format";
import { metricLabel } from "@/contracts/vocabulary";
import { num, searchIsActive, searchStatusWords } from "./search-words";

/** Every search of the project: status, trials run of the maximum, best validation score, budget used. */
export function SearchesList({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  // Live events refetch it; the slow poll covers a dropped event stream while one runs.
  const list = useQuery({
    ...trpc.searches.list.queryOptions({ projectId }),
    refetchInterval: (q) => (q.state.data?.some((s) => searchIsActive(s.status)) ? 10_000 : false),
  });
  return (
    <section aria-labelledby="searches-heading" className="flex flex-col gap-4">
      <TabHeading id="searches-heading" title="Searches" projectId={projectId} />
      <QueryState query={list} loading="Loading searches…" failure="Could not load searches" />
      {list.data && list.data.length === 0 && (
        <EmptyState title="No searches yet">
          A search tries models and settings, one or a few trials at a time, within a budget you set, and keeps the best on validation. Start one with “Train a prediction model” and choose “Improve within a budget”.
        </EmptyState>
      )}
      {list.data && list.data.length > 0 && (
        <ul className="flex flex-col gap-2" aria-label="Searches">
          {list.data.map((s) => {
            const run = s.trials.filter((t) => t.reservedSeconds > 0).length;
            return (
              <li key={s.id} className="flex flex-col gap-1 rounded-lg border border-slate-200 bg-white p-3" data-testid="search-row">
                <Link href={`/projects/${projectId}/ml/searches/${s.id}`} className="break-words font-medium text-blue-800 underline-offset-4 hover:underline">
                  {s.name}
                </Link>
                <p className="text-sm text-slate-700">
                  <span className="font-medium text-slate-900">{searchStatusWords(s.status)}</span> · {run} of {s.spec.budget.maxTrials} trials · best validation {metricLabel(s.spec.objective.metric)}:{" "}
                  {s.best ? `${num(s.best.validationValue)} (trial ${s.best.trialNumber})` : "none yet"} · {formatDuration(s.budget.wallUsedSeconds)} of {formatDuration(s.budget.wallBudgetSeconds)} used · started{" "}
                  {new Date(s.createdAt).toLocaleString()}
                </p>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
