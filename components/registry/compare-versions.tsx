"use client";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { ErrorMessage, Loading } from "@/components/ui/status-message";
import { errorText } from "@/components/ui/error-text";
import type { Comparison } from "./registry-types";
import { VersionPick } from "./version-pick";

const cell = (v: unknown) => (v === null || v === undefined ? "—" : typeof v === "number" ? String(Number(v.toPrecision(6))) : typeof v === "string" ? v : JSON.stringify(v));

const improvementWords = (d: number, a: number, b: number, metric: string) =>
  d === 0 ? `Versions ${a} and ${b} score the same on ${metric}.` : `Version ${b} is ${d > 0 ? "better" : "worse"} than version ${a} by ${Number(Math.abs(d).toPrecision(3))} on ${metric}.`;

function Rows({ title, rows, a, b }: { title: string; rows: Comparison["metrics"]; a: number; b: number }) {
  return (
    <div className="relative max-w-full overflow-x-auto rounded-md border border-slate-200" tabIndex={0} role="region" aria-label={`${title}: version ${a} and version ${b}`}>
      <table className="min-w-full text-left text-xs">
        <caption className="bg-slate-50 px-2 py-1 text-left font-semibold">{title}</caption>
        <thead className="bg-slate-100">
          <tr>
            <th scope="col" className="px-2 py-1">
              Field
            </th>
            <th scope="col" className="px-2 py-1">
              Version {a}
            </th>
            <th scope="col" className="px-2 py-1">
              Version {b}
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key} className={`border-t border-slate-100 ${r.same ? "" : "bg-amber-50"}`}>
              <th scope="row" className="whitespace-nowrap px-2 py-1 font-medium">
                {r.key}
                {!r.same && <span className="sr-only"> (differs)</span>}
              </th>
              <td className="max-w-64 break-all px-2 py-1">{cell(r.a)}</td>
              <td className="max-w-64 break-all px-2 py-1">{cell(r.b)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Any two versions side by side: comparability (and why not), metrics, data, settings, identity. */
export function CompareVersions({ modelId, numbers }: { modelId: string; numbers: number[] }) {
  const trpc = useTRPC();
  const [a, setA] = useState(numbers[1] ?? numbers[0]!);
  const [b, setB] = useState(numbers[0]!);
  const cmp = useQuery({ ...trpc.models.compare.queryOptions({ modelId, a, b }), enabled: a !== b });
  return (
    <div className="flex flex-col gap-3" data-testid="compare">
      <div className="flex flex-wrap gap-3 text-sm">
        <VersionPick label="Compare" value={a} numbers={numbers} onChange={setA} />
        <VersionPick label="with" value={b} numbers={numbers} onChange={setB} />
      </div>
      {a === b && <p className="text-sm text-slate-700">Choose two different versions.</p>}
      {a !== b && cmp.isPending && <Loading label="Comparing…" />}
      {cmp.error && <ErrorMessage>Could not compare: {errorText(cmp.error)}</ErrorMessage>}
      {a !== b && cmp.data && (
        <>
          <p className="text-sm" data-testid="compare-verdict">
            {cmp.data.comparability.reason}
            {cmp.data.improvement !== null && ` ${improvementWords(cmp.data.improvement, a, b, cmp.data.a.metricLabel)}`}
          </p>
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm" data-testid="compare-evidence">
            {[cmp.data.a, cmp.data.b].map((v) => (
              <div key={v.number} className="contents">
                <dt className="font-medium">Version {v.number}</dt>
                <dd className="break-words">
                  {v.evidenceWords}
                  {v.baseModel && `; base model ${v.baseModel}`}; export {v.exportFileName}
                </dd>
              </div>
            ))}
          </dl>
          {!cmp.data.comparability.comparable && cmp.data.comparability.differences.length > 0 && (
            <ul className="list-disc pl-5 text-sm">
              {cmp.data.comparability.differences.map((d) => (
                <li key={d.field} className="break-all">
                  {d.words}: {cell(d.a)} vs {cell(d.b)}
                </li>
              ))}
            </ul>
          )}
          <Rows title="Metrics" rows={cmp.data.metrics} a={a} b={b} />
          <Rows title="Data" rows={cmp.data.data} a={a} b={b} />
          <Rows title="Settings" rows={cmp.data.settings} a={a} b={b} />
          <Rows title="Recipe and computer" rows={cmp.data.identity} a={a} b={b} />
        </>
      )}
    </div>
  );
}
