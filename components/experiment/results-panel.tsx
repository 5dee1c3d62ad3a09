"use client";
import type { ExperimentDetailView } from "@/server/experiments/experiment-views";
import { ConfusionMatrix } from "./confusion-matrix";
import { directionWords, formatMetric } from "./format";
import { ResidualPlot } from "./residual-plot";
import type { FeatureImportance, Leaderboard, Receipt } from "./results-types";
import { ScoreBars } from "./score-bars";

const Section = ({ title, id, children }: { title: string; id: string; children: React.ReactNode }) => (
  <section aria-labelledby={id} className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-4">
    <h3 id={id} className="text-base font-semibold">
      {title}
    </h3>
    {children}
  </section>
);

/** Candidate vs baseline on the same test rows, the evaluation charts, the leaderboard, importance and mistakes. */
export function ResultsPanel({ exp }: { exp: ExperimentDetailView }) {
  const r = exp.results;
  if (!r) return null;
  const cand = r.candidate as unknown as Receipt;
  const base = r.baseline as unknown as Receipt;
  const cmp = r.comparison;
  const lb = r.leaderboard as Leaderboard | null;
  const fi = r.featureImportance as FeatureImportance | null;
  const note = (r.training as { featureImportanceNote?: string } | null)?.featureImportanceNote;
  return (
    <div className="flex flex-col gap-4">
      <Section title="Candidate vs baseline" id="compare-heading">
        <div className="max-w-full overflow-x-auto">
          <table className="text-sm">
            <caption className="mb-1 text-left text-slate-700">
              {cand.primaryMetric} on the same {cand.rows ?? ""} test rows ({directionWords(cand.direction)})
            </caption>
            <thead>
              <tr>
                <th scope="col" className="pr-4 text-left">Model</th>
                <th scope="col" className="text-right">{cand.primaryMetric}</th>
              </tr>
            </thead>
            <tbody>
              <tr>
                <th scope="row" className="pr-4 text-left font-normal">Candidate (trained model)</th>
                <td className="text-right tabular-nums" data-testid="candidate-score">{formatMetric(cand.primaryValue)}</td>
              </tr>
              <tr>
                <th scope="row" className="pr-4 text-left font-normal">Baseline ({cand.task === "regression" ? "training mean" : "majority class"})</th>
                <td className="text-right tabular-nums">{formatMetric(base.primaryValue)}</td>
              </tr>
            </tbody>
          </table>
        </div>
        <p className="text-sm text-slate-800">
          {cmp.comparable ? (cmp.better ? `Better than the baseline: ${cmp.reason}.` : `Not better than the baseline: ${cmp.reason}.`) : `These results cannot be compared: ${cmp.reason}. No claim is made that the model is better.`}
        </p>
      </Section>

      {cand.confusionMatrix && (
        <Section title="Confusion matrix" id="confusion-heading">
          <ConfusionMatrix labels={cand.confusionMatrix.labels} matrix={cand.confusionMatrix.matrix} />
        </Section>
      )}
      {cand.residuals?.sample?.length ? (
        <Section title="Residuals" id="residuals-heading">
          <ResidualPlot sample={cand.residuals.sample} />
        </Section>
      ) : null}

      {lb?.models?.length ? (
        <Section title="Models tried (validation scores)" id="leaderboard-heading">
          <ScoreBars label="leaderboard" data={lb.models.slice(0, 12).map((m) => ({ name: m.model, value: m.validationScore ?? 0 }))} />
          <div className="max-w-full overflow-x-auto" role="region" aria-label="Leaderboard table" tabIndex={0}>
            <table className="min-w-full text-sm">
              <caption className="sr-only">Leaderboard: validation {lb.metric}, best first</caption>
              <thead>
                <tr className="border-b border-slate-200 text-left">
                  <th scope="col" className="pr-3">#</th>
                  <th scope="col" className="pr-3">Model</th>
                  <th scope="col" className="pr-3">Validation {lb.metric}</th>
                  <th scope="col">Fit time</th>
                </tr>
              </thead>
              <tbody>
                {lb.models.map((m, i) => (
                  <tr key={m.model} className="border-b border-slate-100">
                    <td className="pr-3">{i + 1}</td>
                    <th scope="row" className="break-all pr-3 text-left font-normal">{m.model}</th>
                    <td className="pr-3 tabular-nums">{formatMetric(m.validationScore)}</td>
                    <td className="tabular-nums">{m.fitSeconds != null ? `${m.fitSeconds.toFixed(1)} s` : "—"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p className="text-xs text-slate-600">Validation scores guide the choice of model; the test score above is the honest one.</p>
        </Section>
      ) : null}

      <Section title="Feature importance" id="importance-heading">
        {fi?.features?.length ? (
          <>
            <ScoreBars label="importance" data={fi.features.slice(0, 15).map((f) => ({ name: f.name, value: f.importance }))} />
            <ul className="text-sm">
              {fi.features.slice(0, 15).map((f) => (
                <li key={f.name}>
                  {f.name}: {formatMetric(f.importance)}
                </li>
              ))}
            </ul>
            <p className="text-xs text-slate-600">Permutation importance on validation rows: how much the score drops when a column is shuffled.</p>
          </>
        ) : (
          <p className="text-sm text-slate-700">Not available{note ? `: ${note}` : " for this run."}</p>
        )}
      </Section>

      {cand.worstExamples?.length ? (
        <Section title="Examples the model got wrong" id="worst-heading">
          <div className="max-w-full overflow-x-auto" role="region" aria-label="Worst examples table" tabIndex={0}>
            <table className="min-w-full text-sm">
              <thead>
                <tr className="border-b border-slate-200 text-left">
                  <th scope="col" className="pr-3">Row</th>
                  <th scope="col" className="pr-3">Actual</th>
                  <th scope="col" className="pr-3">Predicted</th>
                  <th scope="col">{cand.task === "regression" ? "Error" : "Confidence"}</th>
                </tr>
              </thead>
              <tbody>
                {cand.worstExamples.map((w) => (
                  <tr key={w.rowId} className="border-b border-slate-100">
                    <td className="pr-3 tabular-nums">{w.rowId}</td>
                    <td className="pr-3">{String(w.actual)}</td>
                    <td className="pr-3">{String(w.predicted)}</td>
                    <td className="tabular-nums">{cand.task === "regression" ? formatMetric(w.absoluteError ?? null) : w.confidence != null ? `${Math.round(w.confidence * 100)}%` : "—"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </Section>
      ) : cand.task !== "regression" ? (
        <Section title="Examples the model got wrong" id="worst-heading">
          <p className="text-sm text-slate-700">None: every test row was predicted correctly.</p>
        </Section>
      ) : null}
    </div>
  );
}
