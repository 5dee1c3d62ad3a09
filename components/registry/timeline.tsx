import { formatMetric } from "@/components/experiment/format";
import { actorWords, aliasMoveWords } from "./decision-words";
import type { AliasEvent } from "./registry-types";

/** What an event kept of the evidence it relied on (promote.ts evidenceOf). */
interface Evidence {
  decision?: { reason?: string };
  candidate?: { version: number; primaryMetric: string; primaryValue: number; exportSha256: string };
  previous?: { version: number; primaryMetric: string; primaryValue: number } | null;
}

/**
 * Every move of an alias, newest first: from, to, when, by whom, why, and the evidence.
 * `onRollbackTo` offers rolling back to a version that was selected earlier.
 */
export function Timeline({ events, selected, onRollbackTo }: { events: AliasEvent[]; selected: number | null; onRollbackTo: (version: number) => void }) {
  if (events.length === 0) return <p className="text-sm text-slate-700">No version has been selected yet.</p>;
  const offered = new Set<number>();
  return (
    <ol className="flex flex-col gap-2" aria-label="Selection history">
      {events.map((e) => {
        const ev = (e.evidence ?? {}) as Evidence;
        const offer = e.alias === "selected" && e.to.number !== selected && !offered.has(e.to.number);
        if (offer) offered.add(e.to.number);
        return (
          <li key={e.id} className="flex flex-col gap-1 rounded-md border border-slate-200 p-3 text-sm" data-testid="timeline-event" data-kind={e.kind}>
            <p className="font-medium">{aliasMoveWords(e)}</p>
            <p className="text-slate-700">
              <time dateTime={new Date(e.at).toISOString()}>{new Date(e.at).toLocaleString()}</time> by {actorWords(e.actor)}
            </p>
            <p className="break-words">Reason: {e.reason}</p>
            {e.acknowledgedRegression && <p className="text-amber-900">Promoted with an acknowledgement of what the gate found.</p>}
            {ev.decision?.reason && <p className="break-words text-slate-700">Evidence: {ev.decision.reason}</p>}
            {ev.candidate && (
              <p className="break-all text-xs text-slate-700">
                Version {ev.candidate.version}: {ev.candidate.primaryMetric} {formatMetric(ev.candidate.primaryValue)}
                {ev.previous ? `; version ${ev.previous.version}: ${formatMetric(ev.previous.primaryValue)}` : ""} · export {ev.candidate.exportSha256.slice(0, 12)}
              </p>
            )}
            {offer && (
              <button type="button" className="self-start text-sm font-medium text-blue-800 underline" onClick={() => onRollbackTo(e.to.number)}>
                Roll back to version {e.to.number}
              </button>
            )}
          </li>
        );
      })}
    </ol>
  );
}
