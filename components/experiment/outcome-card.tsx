import type { ExperimentDetailView } from "@/server/experiments/experiment-views";
import { experimentStatusLabel } from "@/contracts/vocabulary";

/**
 * A run that did not succeed, told first: what happened in one line, what to do next,
 * and the codes, detail or traceback folded away for whoever wants them.
 */
export function OutcomeCard({ exp }: { exp: ExperimentDetailView }) {
  const o = exp.outcome;
  if (!o) return null;
  const tone = exp.status === "cancelled" ? "border-amber-300 bg-amber-50 text-amber-950" : exp.status === "unknown" ? "border-slate-300 bg-slate-50 text-slate-900" : "border-red-300 bg-red-50 text-red-950";
  return (
    <section aria-labelledby="outcome-heading" className={`flex flex-col gap-2 rounded-lg border p-4 ${tone}`} data-testid="outcome">
      <h3 id="outcome-heading" className="text-base font-semibold">
        {experimentStatusLabel(exp.status)}
      </h3>
      <p data-testid="outcome-summary">{o.summary}</p>
      <p data-testid="outcome-action">
        <strong>What to do: </strong>
        {o.action}
      </p>
      {o.technical && (
        <details className="text-sm">
          <summary className="min-h-10 cursor-pointer">Technical details</summary>
          <pre className="max-h-64 overflow-auto whitespace-pre-wrap break-all rounded bg-white/70 p-2 text-xs">{o.technical}</pre>
        </details>
      )}
    </section>
  );
}
