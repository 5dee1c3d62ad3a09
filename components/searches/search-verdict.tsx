"use client";
import Link from "next/link";
import type { SearchView } from "@/server/searches/search-views";
import { formatDuration } from "@/components/experiment/format";
import { experimentStatusLabel } from "@/contracts/vocabulary";
import { budgetPercent, metricInSentence, num, outcomeWords, searchIsActive, searchStatusWords, testResultWords } from "./search-words";
import { SearchActions } from "./search-actions";

/**
 * The first thing on a search's page. Finished: what it chose in words, why it ended, and
 * the one test result with a link to the final experiment (export and registry live
 * there). Running: the best so far and the budget used, with Pause / Resume / Stop.
 */
export function SearchVerdict({ search, projectId }: { search: SearchView; projectId: string }) {
  const words = outcomeWords(search);
  const test = testResultWords(search);
  const active = searchIsActive(search.status);
  const metric = metricInSentence(search.spec.objective.metric);
  const b = search.budget;
  const pct = budgetPercent(b);
  const f = search.final;
  const bestFamily = search.best ? search.trials.find((t) => t.number === search.best!.trialNumber)?.params.family : undefined;
  return (
    <section aria-labelledby="search-verdict-heading" className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4" data-testid="search-verdict">
      <h3 id="search-verdict-heading" className="text-base font-semibold">
        {search.status === "completed" ? "What the search chose" : search.status === "failed" ? "The search failed" : search.status === "finalizing" ? "Scoring the choice" : "Searching"}
      </h3>
      <p className="text-sm" data-testid="search-status">
        <span className="font-medium text-slate-900">{searchStatusWords(search.status)}</span>
        {/* Once it chose, "The search ended because …" below says the same reason. */}
        {search.reason && !words && <span className="text-slate-700"> · {search.reason}</span>}
      </p>
      {words && (
        <>
          <p className="text-base font-medium text-slate-900" data-testid="search-verdict-headline">
            {words.headline}
          </p>
          <p className="text-sm text-slate-700">{words.ended}</p>
        </>
      )}
      {test && (
        <p className="text-sm text-slate-900" data-testid="search-test-result">
          {test}
        </p>
      )}
      {f && f.candidate && (
        <p className="text-sm">
          <Link href={`/projects/${projectId}/ml/experiments/${f.experimentId}`} className="font-medium text-blue-800 underline">
            Open the chosen model’s experiment
          </Link>{" "}
          — its full scores, the export and “Register in the registry”.
        </p>
      )}
      {f && f.status !== "succeeded" && !active && (
        <p className="text-sm text-amber-900">
          The final scoring is {experimentStatusLabel(f.status).toLowerCase()}
          {f.reason ? `: ${f.reason}` : ""}.
        </p>
      )}
      {search.status === "failed" && (
        <p className="text-sm text-slate-800">
          The trials that finished are listed below with their validation scores. To try again, start a new search from “Train a prediction model” (a larger time budget or more minutes per trial helps when trials ran out of time); see the trials’ reasons for what went wrong.
        </p>
      )}
      {active && (
        <>
          <p className="text-sm text-slate-900" data-testid="search-best">
            {search.best
              ? `Best so far: trial ${search.best.trialNumber}${typeof bestFamily === "string" ? ` (${bestFamily})` : ""}, validation ${metric} ${num(search.best.validationValue)}.`
              : "No trial has a validation score yet."}
          </p>
          <div className="flex flex-col gap-1" data-testid="search-budget">
            <label htmlFor="search-budget-bar" className="text-sm text-slate-800">
              Time used: {formatDuration(b.wallUsedSeconds)} of {formatDuration(b.wallBudgetSeconds)} ({pct} %) · trials booked: {b.trialsBooked} of {search.spec.budget.maxTrials}
            </label>
            <progress id="search-budget-bar" className="h-3 w-full" max={100} value={pct}>
              {pct} %
            </progress>
            <p className="text-xs text-slate-700">
              The last {formatDuration(b.finalReserveSeconds)} are kept for scoring the choice on the test rows; the search never runs past its budget. Paused time does not count.
            </p>
          </div>
        </>
      )}
      <SearchActions search={search} />
    </section>
  );
}
