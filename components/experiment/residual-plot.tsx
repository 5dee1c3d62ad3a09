"use client";
import { CartesianGrid, ReferenceLine, ResponsiveContainer, Scatter, ScatterChart, Tooltip, XAxis, YAxis } from "recharts";

/** Residuals (predicted − actual) against the actual value, from the receipt's seeded sample. */
export function ResidualPlot({ sample }: { sample: { rowId: number; actual: number; predicted: number }[] }) {
  const points = sample.map((s) => ({ actual: s.actual, residual: s.predicted - s.actual }));
  return (
    <figure className="flex flex-col gap-1" data-testid="residual-plot">
      <div className="h-64 w-full" aria-hidden="true">
        <ResponsiveContainer width="100%" height="100%">
          <ScatterChart accessibilityLayer={false} margin={{ top: 8, right: 8, bottom: 20, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis type="number" dataKey="actual" name="Actual" label={{ value: "actual", position: "insideBottom", offset: -10 }} />
            <YAxis type="number" dataKey="residual" name="Residual" />
            <ReferenceLine y={0} stroke="#334155" />
            <Tooltip />
            <Scatter data={points} fill="#1d4ed8" isAnimationActive={false} />
          </ScatterChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="text-sm text-slate-700">
        Residual (predicted − actual) for {points.length} sampled test rows; points near the line at 0 were predicted well.
      </figcaption>
    </figure>
  );
}
