"use client";
import { CartesianGrid, Legend, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { SearchView } from "@/server/searches/search-views";
import { chartPoints, metricInSentence, num, valueDomain } from "./search-words";

/**
 * Validation metric per trial, the best so far, and the baseline's validation value as a
 * line once the search knows it (the outcome carries it). Said in words too.
 */
export function TrialsChart({ search }: { search: SearchView }) {
  const points = chartPoints(search.spec, search.trials);
  const scored = points.filter((p) => p.value !== null);
  const baseline = search.baselineValidationValue ?? search.outcome?.baselineValidationValue ?? null;
  const metric = metricInSentence(search.spec.objective.metric);
  if (!scored.length) return <p className="text-sm text-slate-700">The chart appears once a trial has a validation score.</p>;
  const domain = valueDomain([...scored.map((p) => p.value!), ...(baseline !== null ? [baseline] : [])]);
  const best = scored.reduce((b, p) => (p.best === p.value ? p : b), scored[0]!);
  return (
    <figure className="flex flex-col gap-1" data-testid="trials-chart">
      <div className="h-56 w-full" aria-hidden="true">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart accessibilityLayer={false} data={points} margin={{ top: 8, right: 8, bottom: 20, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis type="number" dataKey="trial" domain={["dataMin", "dataMax"]} allowDecimals={false} label={{ value: "trial", position: "insideBottom", offset: -10 }} />
            <YAxis domain={domain} allowDataOverflow={false} width={48} tickFormatter={(v: number) => String(Number(v.toPrecision(3)))} />
            <Tooltip />
            <Legend verticalAlign="top" height={24} />
            {baseline !== null && <ReferenceLine y={baseline} stroke="#64748b" strokeDasharray="4 4" label={{ value: "baseline", position: "insideTopRight", fill: "#334155", fontSize: 12 }} />}
            <Line type="linear" dataKey="value" name={`validation ${metric}`} stroke="#1d4ed8" isAnimationActive={false} connectNulls={false} />
            <Line type="stepAfter" dataKey="best" name="best so far" stroke="#b45309" strokeDasharray="5 3" dot={false} isAnimationActive={false} connectNulls />
          </LineChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="text-sm text-slate-700" data-testid="trials-chart-summary">
        {scored.length} of {points.length} trials scored on validation; the best so far is trial {best.trial} with validation {metric} {num(best.value)}
        {baseline !== null ? `; the baseline got ${num(baseline)}` : ""}.
      </figcaption>
    </figure>
  );
}
