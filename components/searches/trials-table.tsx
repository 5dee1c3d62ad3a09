"use client";
import type { SearchView } from "@/server/searches/search-views";
import { formatDuration } from "@/components/experiment/format";
import { metricLabel } from "@/contracts/vocabulary";
import { paramsWords } from "@/contracts/searches/params-words";
import { num, proposerWords, trialStatusWords } from "./search-words";

/**
 * Every trial in order, rejected proposals included with every reason: who proposed it and
 * why, its settings, its validation score, the time it used against what it booked.
 * Scrolls sideways inside its own region on a narrow screen, never the page.
 */
export function TrialsTable({ search }: { search: SearchView }) {
  const trials = [...search.trials].sort((a, b) => a.number - b.number);
  const bestNumber = search.outcome?.kind === "candidate" ? search.outcome.trialNumber : search.best?.trialNumber;
  if (!trials.length) return <p className="text-sm text-slate-700">No trial yet: the first one is being planned.</p>;
  return (
    <div className="relative max-w-full overflow-x-auto rounded-md border border-slate-200" tabIndex={0} role="region" aria-label="Trials table">
      <table className="min-w-full text-left text-sm" data-testid="trials-table">
        <caption className="sr-only">Trials of this search</caption>
        <thead className="bg-slate-50 text-xs text-slate-700">
          <tr>
            <th scope="col" className="px-2 py-1">Trial</th>
            <th scope="col" className="px-2 py-1">Status</th>
            <th scope="col" className="px-2 py-1">Proposed by</th>
            <th scope="col" className="px-2 py-1">Settings</th>
            <th scope="col" className="px-2 py-1">Validation {metricLabel(search.spec.objective.metric)}</th>
            <th scope="col" className="px-2 py-1">Time used / booked</th>
            <th scope="col" className="px-2 py-1">Why</th>
          </tr>
        </thead>
        <tbody>
          {trials.map((t) => (
            <tr key={t.id} className="border-t border-slate-100 align-top" data-testid="trial-row" data-status={t.status} data-chosen={t.number === bestNumber ? "true" : undefined}>
              <th scope="row" className="whitespace-nowrap px-2 py-1 font-medium">
                {t.number}
                {t.number === bestNumber && <span className="ml-1 rounded bg-blue-100 px-1 text-xs text-blue-900">{search.outcome ? "chosen" : "best"}</span>}
              </th>
              <td className="px-2 py-1">{trialStatusWords(t.status)}</td>
              <td className="min-w-32 px-2 py-1">
                {proposerWords(t.proposer)}
                {t.hypothesis && <span className="block text-xs text-slate-700">“{t.hypothesis}”</span>}
              </td>
              <td className="min-w-40 break-words px-2 py-1 font-mono text-xs">{paramsWords(t.params)}</td>
              <td className="whitespace-nowrap px-2 py-1">{num(t.validationValue)}</td>
              <td className="whitespace-nowrap px-2 py-1">
                {t.status === "rejected" ? "—" : `${t.usedSeconds !== null ? formatDuration(t.usedSeconds) : "—"} / ${t.reservedSeconds > 0 ? formatDuration(t.reservedSeconds) : "—"}`}
              </td>
              <td className="min-w-40 px-2 py-1">
                {t.rejection.length > 0 ? (
                  <ul className="list-disc pl-4" aria-label={`Why trial ${t.number} was rejected`}>
                    {t.rejection.map((r) => (
                      <li key={r}>{r}</li>
                    ))}
                  </ul>
                ) : t.status !== "succeeded" && t.reason ? (
                  t.reason
                ) : (
                  ""
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
