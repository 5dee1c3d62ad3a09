"use client";
/**
 * One search (issue 17): the verdict first (what it chose and its one test score, or the
 * best so far and the budget used while it runs), then the metric per trial, the trials
 * with their settings and who proposed them, and the frozen spec folded away. Live:
 * `search.changed` events invalidate the query; a slow poll covers a dropped stream.
 */
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "@/components/providers/trpc";
import { ErrorMessage, Loading } from "@/components/ui/status-message";
import { errorText } from "@/components/ui/error-text";
import { Card } from "@/components/ui/card";
import { FactList } from "@/components/ui/fact-list";
import { directionWords, metricLabel, TASK_LABELS } from "@/contracts/vocabulary";
import type { SearchView } from "@/server/searches/search-views";
import { searchIsActive, spaceWords } from "./search-words";
import { SearchVerdict } from "./search-verdict";
import { TrialsChart } from "./trials-chart";
import { TrialsTable } from "./trials-table";


function SpecDetails({ search }: { search: SearchView }) {
  const s = search.spec;
  const rows: [string, string][] = [
    ["Objective", `${metricLabel(s.objective.metric)} on validation (${directionWords(s.objective.direction)})`],
    ["Minimum useful gain", s.objective.minUsefulGain > 0 ? `${s.objective.minUsefulGain} — a trial must beat the baseline by at least this much to be chosen` : "0 — any improvement over the baseline counts"],
    ["Budget", `at most ${s.budget.maxTrials} trials and ${s.budget.maxWallMinutes} min in all, ${s.budget.perTrialMinutes} min per trial`],
    ["Trials at once", s.budget.parallelTrials === 1 ? "1: one after another" : `${s.budget.parallelTrials}, each with an even share of the computer's CPUs`],
    ["Patience", s.patience === null ? "none: runs until the trials or the time are used" : `stops after ${s.patience} trials in a row without a useful gain`],
    ["Proposals", s.strategy === "tpe" ? "the planner (Optuna TPE), and agents within the same limits" : "agents only"],
    ["Predict", `${s.target} (${TASK_LABELS[s.task]})`],
    ["Columns left out", s.excludeColumns.join(", ") || "none"],
    ["Split", s.split.strategy === "random" ? "random (stratified)" : `${s.split.strategy} on ${s.split.column}`],
    ["Seed", String(s.seed)],
  ];
  return (
    <details className="rounded-lg border border-slate-200 bg-white p-4" data-testid="search-spec">
      <summary className="cursor-pointer text-base font-semibold">What this search is allowed to do (frozen when it started)</summary>
      <div className="mt-3 flex flex-col gap-3">
        <FactList rows={rows} label="Search settings" />
        <div>
          <p className="text-sm font-medium text-slate-700">Search space</p>
          <ul className="list-disc pl-5 text-sm text-slate-900" aria-label="Search space">
            {spaceWords(s.space).map((l) => (
              <li key={l} className="break-words">
                {l}
              </li>
            ))}
          </ul>
        </div>
      </div>
    </details>
  );
}

export function SearchPage({ projectId, searchId }: { projectId: string; searchId: string }) {
  const trpc = useTRPC();
  const q = useQuery({
    ...trpc.searches.get.queryOptions({ id: searchId }),
    refetchInterval: (query) => (query.state.data && searchIsActive(query.state.data.status) ? 5000 : false),
    retry: 3,
  });
  if (q.isPending) return <Loading label="Loading the search…" />;
  if (!q.data)
    return (
      <ErrorMessage>
        Could not load the search: {errorText(q.error)} <Link href={`/projects/${projectId}/ml/searches`}>Back to searches</Link>
      </ErrorMessage>
    );
  const s = q.data;
  return (
    <section aria-labelledby="search-heading" className="flex flex-col gap-4">
      <div className="flex flex-col gap-1">
        <Link href={`/projects/${projectId}/ml/searches`} className="text-sm text-blue-800 underline">
          ← All searches
        </Link>
        <h2 id="search-heading" className="break-words text-lg font-semibold">
          {s.name}
        </h2>
        <p className="text-sm text-slate-700">
          Improve within a budget · predicting <strong>{s.spec.target}</strong> · {metricLabel(s.spec.objective.metric)} on validation · started {new Date(s.createdAt).toLocaleString()}
        </p>
      </div>
      {q.error && (
        <p role="status" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          Showing the last known state: the server did not answer ({errorText(q.error)}). It refreshes when the connection is back.
        </p>
      )}
      <SearchVerdict search={s} projectId={projectId} />
      <Card title="Validation score per trial" id="trials-chart-heading">
        <TrialsChart search={s} />
      </Card>
      <Card title="Trials" id="trials-heading">
        <TrialsTable search={s} />
      </Card>
      <SpecDetails search={s} />
    </section>
  );
}
