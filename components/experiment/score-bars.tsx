"use client";
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

/** Horizontal bars for the leaderboard or feature importance; the numbers are also in the table next to it. */
export function ScoreBars({ data, label }: { data: { name: string; value: number }[]; label: string }) {
  return (
    <div className="w-full" style={{ height: Math.max(120, data.length * 28 + 40) }} aria-hidden="true" data-testid={`bars-${label}`}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart accessibilityLayer={false} data={data} layout="vertical" margin={{ top: 4, right: 8, bottom: 4, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis type="number" />
          <YAxis type="category" dataKey="name" width={110} tick={{ fontSize: 11 }} />
          <Tooltip />
          <Bar dataKey="value" fill="#1d4ed8" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
