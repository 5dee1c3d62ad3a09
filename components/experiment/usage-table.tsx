import type { StepView } from "@/server/experiments/experiment-views";
import { formatBytes } from "@/contracts/vocabulary";
import { formatDuration, totalUsage, type StepUsage } from "./format";

/** Time and resources per step (wall, CPU, peak memory), as the worker's ledger measured them. */
export function UsageTable({ steps }: { steps: StepView[] }) {
  const rows = steps.filter((s) => s.usage);
  if (!rows.length) return <p className="text-sm text-slate-700">Resources appear as steps finish.</p>;
  const total = totalUsage(rows.map((s) => s.usage as StepUsage));
  return (
    <div className="max-w-full overflow-x-auto" role="region" aria-label="Resources per step" tabIndex={0}>
      <table className="min-w-full text-left text-sm">
        <caption className="sr-only">Resources used per step</caption>
        <thead>
          <tr className="border-b border-slate-200">
            <th scope="col" className="py-1 pr-3">Step</th>
            <th scope="col" className="py-1 pr-3">Wall time</th>
            <th scope="col" className="py-1 pr-3">CPU time</th>
            <th scope="col" className="py-1">Peak memory</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((s) => {
            const u = s.usage as StepUsage;
            return (
              <tr key={s.step} className="border-b border-slate-100">
                <th scope="row" className="py-1 pr-3 font-normal">{s.label}</th>
                <td className="py-1 pr-3">{formatDuration(u.wallSeconds)}</td>
                <td className="py-1 pr-3">{formatDuration(u.cpuSeconds)}</td>
                <td className="py-1">{formatBytes(u.peakRssBytes)}</td>
              </tr>
            );
          })}
          <tr className="font-semibold">
            <th scope="row" className="py-1 pr-3 text-left">Total</th>
            <td className="py-1 pr-3">{formatDuration(total.wallSeconds)}</td>
            <td className="py-1 pr-3">{formatDuration(total.cpuSeconds)}</td>
            <td className="py-1">{formatBytes(total.peakRssBytes)} (largest step)</td>
          </tr>
        </tbody>
      </table>
    </div>
  );
}
