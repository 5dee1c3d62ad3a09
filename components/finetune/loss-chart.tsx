"use client";
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { LossPoint } from "@/server/finetune/finetune.schema";

/** Merges both curves on their steps: eval loss is measured on fewer steps than train loss. */
function byStep(train: LossPoint[], evalLoss: LossPoint[]) {
  const rows = new Map<number, { step: number; train?: number; eval?: number }>();
  for (const p of train) rows.set(p.step, { ...rows.get(p.step), step: p.step, train: p.loss });
  for (const p of evalLoss) rows.set(p.step, { ...rows.get(p.step), step: p.step, eval: p.loss });
  return [...rows.values()].sort((a, b) => a.step - b.step);
}

const last = (points: LossPoint[]) => points.at(-1);

/** Train and eval loss per step (live while training runs); the last values are also said in words. */
export function LossChart({ train, evalLoss }: { train: LossPoint[]; evalLoss: LossPoint[] }) {
  if (!train.length && !evalLoss.length) return <p className="text-sm text-slate-700">The loss curve appears after the first training step.</p>;
  const t = last(train);
  const e = last(evalLoss);
  return (
    <figure className="flex flex-col gap-1" data-testid="loss-chart">
      <div className="h-56 w-full" aria-hidden="true">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart accessibilityLayer={false} data={byStep(train, evalLoss)} margin={{ top: 8, right: 8, bottom: 20, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis type="number" dataKey="step" domain={["dataMin", "dataMax"]} allowDecimals={false} label={{ value: "step", position: "insideBottom", offset: -10 }} />
            <YAxis domain={["auto", "auto"]} width={48} tickFormatter={(v: number) => String(Number(v.toPrecision(5)))} />
            <Tooltip />
            <Legend verticalAlign="top" height={24} />
            <Line type="monotone" dataKey="train" name="train loss" stroke="#1d4ed8" dot={false} isAnimationActive={false} connectNulls />
            <Line type="monotone" dataKey="eval" name="eval loss" stroke="#b45309" strokeDasharray="5 3" isAnimationActive={false} connectNulls />
          </LineChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="text-sm text-slate-700" data-testid="loss-summary">
        {t ? `Train loss ${t.loss.toFixed(3)} at step ${t.step}` : "No train loss yet"}
        {e ? `; eval loss ${e.loss.toFixed(3)} at step ${e.step}` : ""} ({train.length} train and {evalLoss.length} eval points).
      </figcaption>
    </figure>
  );
}
