"use client";
/**
 * The results of a finished run, in the order a person reads them: the verdict (what
 * the score means, next to the baseline), the chart, what the model got wrong, the
 * models tried, feature importance. Each is its own export so the page sets the order.
 */
import type { ExperimentDetailView } from "@/server/experiments/experiment-views";
import { ConfusionMatrix } from "./confusion-matrix";
import { directionWords, formatMetric } from "./format";
import { leaderboardView } from "./leaderboard";
import { ResidualPlot } from "./residual-plot";
import { ScoreBars } from "./score-bars";
import { verdict } from "./verdict";

export const Section = ({ title, id, children, testId }: { title: string; id: string; children: React.ReactNode; testId?: string }) => (
  <section aria-labelledby={id} className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-4" data-testid={testId}>
    <h3 id={id} className="text-base font-semibold">
      {title}
    </h3>
    {children}
  </section>
);

const receipts = (exp: ExperimentDetailView) => (exp.results ? { cand: exp.results.candidate, base: exp.results.baseline } : null);

/** The first thing on a finished run's page: the candidate against the baseline, in words and numbers. */
export function VerdictCard({ exp, children }: { exp: ExperimentDetailView; children?: React.ReactNode }) {
  const r = receipts(exp);
  if (!r || !exp.results) return null;
  const { cand, base } = r;
  const v = verdict({ target: exp.target, candidate: cand, baseline: base, comparison: exp.results.comparison });
  const tone = v.better === true ? "border-green-300 bg-green-50" : v.better === false ? "border-amber-300 bg-amber-50" : "border-slate-300 bg-white";
  return (
    <section aria-labelledby="verdict-heading" className={`flex flex-col gap-2 rounded-lg border p-4 ${tone}`} data-testid="verdict">
      <h3 id="verdict-heading" className="text-base font-semibold">
        Is the model any good?
      </h3>
      <p className="text-base text-slate-900" data-testid="verdict-headline">
        {v.headline}
      </p>
      <p className="text-sm font-medium text-slate-900" data-testid="verdict-judgement">
        {v.judgement}
      </p>
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
              <td className="text-right tabular-nums" data-testid="baseline-score">{formatMetric(base.primaryValue)}</td>
            </tr>
          </tbody>
        </table>
      </div>
      {children}
    </section>
  );
}

/** The evaluation chart: the confusion matrix for classes, the residuals for numbers. */
export function ResultChart({ exp }: { exp: ExperimentDetailView }) {
  const r = receipts(exp);
  if (!r) return null;
  if (r.cand.confusionMatrix)
    return (
      <Section title="Confusion matrix" id="confusion-heading" testId="result-chart">
        <ConfusionMatrix labels={r.cand.confusionMatrix.labels} matrix={r.cand.confusionMatrix.matrix} />
      </Section>
    );
  if (r.cand.residuals?.sample?.length)
    return (
      <Section title="Residuals" id="residuals-heading" testId="result-chart">
        <ResidualPlot sample={r.cand.residuals.sample} />
      </Section>
    );
  return null;
}

/** The test rows the model got most wrong, with the row's own values when the data could be read back. */
export function Mistakes({ exp }: { exp: ExperimentDetailView }) {
  const r = receipts(exp);
  if (!r) return null;
  const { cand } = r;
  const regression = cand.task === "regression";
  const worst = cand.worstExamples ?? [];
  if (!worst.length)
    return regression ? null : (
      <Section title="What the model got wrong" id="worst-heading" testId="mistakes">
        <p className="text-sm text-slate-700">Nothing: every test row was predicted correctly.</p>
      </Section>
    );
  const rows = exp.mistakeRows;
  const columns = rows?.columns ?? [];
  return (
    <Section title="What the model got wrong" id="worst-heading" testId="mistakes">
      <p className="text-sm text-slate-700">
        {regression ? "The test rows with the largest errors, largest first." : "Test rows it predicted wrongly, the least sure of the right answer first."}
      </p>
      <div className="max-w-full overflow-x-auto" role="region" aria-label="Worst examples table" tabIndex={0}>
        <table className="min-w-full text-sm">
          <thead>
            <tr className="border-b border-slate-200 text-left">
              <th scope="col" className="pr-3">Row</th>
              <th scope="col" className="pr-3">Actual</th>
              <th scope="col" className="pr-3">Predicted</th>
              <th scope="col" className="pr-3">{regression ? "Error" : "Confidence"}</th>
              {columns.map((c) => (
                <th key={c} scope="col" className="whitespace-nowrap pr-3 font-normal text-slate-700">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {worst.map((w) => {
              const values = rows?.rows[String(w.rowId)];
              return (
                <tr key={w.rowId} className="border-b border-slate-100" data-testid="mistake-row">
                  <td className="pr-3 tabular-nums">{w.rowId + 1}</td>
                  <td className="pr-3">{String(w.actual)}</td>
                  <td className="pr-3 font-medium">{String(w.predicted)}</td>
                  <td className="pr-3 tabular-nums">{"absoluteError" in w ? formatMetric(w.absoluteError) : w.confidence != null ? `${Math.round(w.confidence * 100)} %` : "—"}</td>
                  {columns.map((c) => (
                    <td key={c} className="whitespace-nowrap pr-3 text-slate-800">
                      {values?.[c] ?? "—"}
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <p className="text-xs text-slate-600">
        Row is the data row in the file (1 = the first row after the header).
        {rows?.note ? ` ${rows.note}` : ""}
      </p>
    </Section>
  );
}

/** The models AutoGluon tried, best first; the one kept is marked, ties are said. */
export function ModelsTried({ exp }: { exp: ExperimentDetailView }) {
  const lb = exp.results?.leaderboard;
  const view = leaderboardView(lb, exp.results?.training?.bestModel ?? null);
  if (!view) return null;
  return (
    <Section title="Models tried (validation scores)" id="leaderboard-heading" testId="leaderboard">
      {view.tie && (
        <p className="text-sm text-slate-800" data-testid="leaderboard-tie">
          {view.tie}
        </p>
      )}
      {!view.allTied && <ScoreBars label="leaderboard" data={view.models.slice(0, 12).map((m, i) => ({ name: `#${i + 1}`, value: m.validationScore ?? 0 }))} />}
      <div className="max-w-full overflow-x-auto" role="region" aria-label="Leaderboard table" tabIndex={0}>
        <table className="min-w-full text-sm">
          <caption className="sr-only">Leaderboard: validation {lb?.metric}, best first</caption>
          <thead>
            <tr className="border-b border-slate-200 text-left">
              <th scope="col" className="pr-3">#</th>
              <th scope="col" className="pr-3">Model</th>
              <th scope="col" className="pr-3">Validation {lb?.metric}</th>
              <th scope="col">Fit time</th>
            </tr>
          </thead>
          <tbody>
            {view.models.map((m, i) => (
              <tr key={m.model} className={`border-b border-slate-100 ${m.chosen ? "bg-blue-50 font-medium" : ""}`} data-testid="leaderboard-row" data-chosen={m.chosen ? "true" : undefined}>
                <td className="pr-3 align-top">{i + 1}</td>
                <th scope="row" className="min-w-0 pr-3 text-left align-top font-normal [overflow-wrap:anywhere]" title={m.model}>
                  {m.model}
                  {m.chosen && <span className="ml-1 whitespace-nowrap rounded bg-blue-700 px-1.5 py-0.5 text-xs font-medium text-white">chosen</span>}
                </th>
                <td className="pr-3 align-top tabular-nums">{formatMetric(m.validationScore)}</td>
                <td className="align-top tabular-nums">{m.fitSeconds != null ? `${m.fitSeconds.toFixed(1)} s` : "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="text-xs text-slate-600">Validation scores guide the choice of model; the test score at the top is the honest one.</p>
    </Section>
  );
}

export function Importance({ exp }: { exp: ExperimentDetailView }) {
  const r = exp.results;
  if (!r) return null;
  const fi = r.featureImportance;
  const note = r.training?.featureImportanceNote;
  return (
    <Section title="Feature importance" id="importance-heading">
      {fi?.features?.length ? (
        <>
          <ScoreBars label="importance" data={fi.features.slice(0, 15).map((f) => ({ name: f.name, value: f.importance ?? 0 }))} />
          <ul className="text-sm">
            {fi.features.slice(0, 15).map((f) => (
              <li key={f.name} className="[overflow-wrap:anywhere]">
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
  );
}
