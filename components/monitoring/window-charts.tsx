"use client";
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { MonitorWindow } from "@/contracts/monitoring/monitoring";
import type { ReferenceColumn } from "@/contracts/recipes/data";
import { histogramPoints, windowPoints } from "./monitor-words";

/** Per window: requests; failure rate, p50 and p95; and the chosen column's distance against its threshold. Hidden from screen readers: the table says the same. */
export function WindowCharts({ windows, column }: { windows: readonly MonitorWindow[]; column: string | null }) {
  const points = windowPoints(windows, column);
  return (
    <div className="grid gap-3 md:grid-cols-2" aria-hidden="true" data-testid="monitor-charts">
      <div className="h-48 w-full">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart accessibilityLayer={false} data={points} margin={{ top: 8, right: 8, bottom: 8, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="window" allowDecimals={false} />
            <YAxis width={44} allowDecimals={false} />
            <Tooltip />
            <Legend verticalAlign="top" height={24} />
            <Bar dataKey="requests" name="requests" fill="#94a3b8" isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <div className="h-48 w-full">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart accessibilityLayer={false} data={points} margin={{ top: 8, right: 8, bottom: 8, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="window" allowDecimals={false} />
            <YAxis yAxisId="ms" width={44} />
            <YAxis yAxisId="pct" orientation="right" width={36} domain={[0, 100]} />
            <Tooltip />
            <Legend verticalAlign="top" height={24} />
            <Line yAxisId="ms" dataKey="p50Ms" name="p50 (ms)" stroke="#0f766e" isAnimationActive={false} />
            <Line yAxisId="ms" dataKey="p95Ms" name="p95 (ms)" stroke="#1d4ed8" isAnimationActive={false} />
            <Line yAxisId="pct" dataKey="failurePct" name="failures (%)" stroke="#b91c1c" isAnimationActive={false} />
          </LineChart>
        </ResponsiveContainer>
      </div>
      <div className="h-48 w-full">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart accessibilityLayer={false} data={points} margin={{ top: 8, right: 8, bottom: 8, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="window" allowDecimals={false} />
            <YAxis width={44} domain={[0, "auto"]} />
            <Tooltip />
            <Legend verticalAlign="top" height={24} />
            <Line dataKey="distance" name={`${column ?? "column"}: distance`} stroke="#7c3aed" isAnimationActive={false} connectNulls={false} />
            <Line dataKey="threshold" name="threshold at that size" stroke="#64748b" strokeDasharray="4 4" isAnimationActive={false} connectNulls={false} />
          </LineChart>
        </ResponsiveContainer>
      </div>
    </div>
  );
}

/** The reference's bins beside one window's, as shares of each. */
export function HistogramCompare({ column, window }: { column: ReferenceColumn; window: MonitorWindow | undefined }) {
  const points = histogramPoints(column, window?.histograms[column.name]);
  return (
    <div className="h-56 w-full" aria-hidden="true" data-testid="monitor-histograms">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart accessibilityLayer={false} data={points} margin={{ top: 8, right: 8, bottom: 8, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="bin" interval={0} tick={{ fontSize: 10 }} />
          <YAxis width={36} unit="%" />
          <Tooltip />
          <Legend verticalAlign="top" height={24} />
          <Bar dataKey="reference" name="training data" fill="#94a3b8" isAnimationActive={false} />
          <Bar dataKey="window" name={window ? `window ${window.seq}` : "window"} fill="#1d4ed8" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
