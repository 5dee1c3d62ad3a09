"use client";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, XAxis, YAxis } from "recharts";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { ErrorMessage, Loading } from "@/components/ui/status-message";
import { errorText } from "@/components/ui/error-text";
import type { HoldoutCompareResult } from "@/server/holdouts/holdouts.schema";
import { intervalVerdict } from "@/server/holdouts/interval-verdict";
import { VersionPick } from "./version-pick";

const num = (v: number) => String(Number(v.toPrecision(4)));
const signed = (v: number) => `${v > 0 ? "+" : v < 0 ? "−" : ""}${num(Math.abs(v))}`;

/** The difference and its interval on one line around zero: where the interval lies says more than the estimate. */
function IntervalLine({ d }: { d: HoldoutCompareResult["difference"] }) {
  const reach = Math.max(Math.abs(d.low), Math.abs(d.high), 1e-9);
  const x = (v: number) => 50 + (45 * v) / reach;
  return (
    <svg viewBox="0 0 100 16" className="h-6 w-full max-w-md" aria-hidden="true">
      <line x1="5" x2="95" y1="8" y2="8" stroke="#cbd5e1" strokeWidth="0.5" />
      <line x1="50" x2="50" y1="2" y2="14" stroke="#64748b" strokeWidth="0.5" strokeDasharray="1 1" />
      <line x1={x(d.low)} x2={x(d.high)} y1="8" y2="8" stroke="#1d4ed8" strokeWidth="2" />
      <circle cx={x(d.estimate)} cy="8" r="1.8" fill="#b45309" />
    </svg>
  );
}

function Result({ r }: { r: HoldoutCompareResult }) {
  const [first, second] = r.difference.of;
  const better = r.direction === "higher_is_better" ? "higher" : "lower";
  const verdict = {
    second_better: `Version ${second} is better than version ${first}: the interval excludes a loss.`,
    first_better: `Version ${second} is worse than version ${first}: the interval excludes a gain.`,
    no_clear_difference: `The holdout does not tell versions ${first} and ${second} apart: the interval includes no change.`,
  }[intervalVerdict(r.direction, r.difference.low, r.difference.high)];
  const data = r.results.map((x) => ({ name: `v${x.version}`, value: x.value }));
  return (
    <figure className="flex flex-col gap-2" data-testid="holdout-result">
      <div className="h-40 w-full max-w-md" aria-hidden="true">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart accessibilityLayer={false} data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="name" />
            <YAxis width={48} tickFormatter={(v: number) => String(Number(v.toPrecision(3)))} />
            <Bar dataKey="value" fill="#1d4ed8" isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <IntervalLine d={r.difference} />
      <figcaption className="flex flex-col gap-1 text-sm">
        <span data-testid="holdout-verdict">{verdict}</span>
        <span>
          {r.metric} ({better} is better) on {r.rows.toLocaleString("en")} {r.unit} of “{r.holdout.name}” that no version learnt from
          {r.excluded.total > 0 ? ` (${r.excluded.total.toLocaleString("en")} left out)` : ""}:{" "}
          {r.results.map((x) => `version ${x.version} ${num(x.value)}`).join(", ")}.
        </span>
        <span>
          Version {second} − version {first}: {signed(r.difference.estimate)}, {Math.round(r.difference.confidence * 100)}% interval {signed(r.difference.low)} to {signed(r.difference.high)}.
        </span>
      </figcaption>
    </figure>
  );
}

/** "Compare on the holdout": two versions re-scored by the trusted evaluator on a reserved holdout (docs/holdouts.md). */
export function HoldoutCompare({ projectId, modelId, numbers }: { projectId: string; modelId: string; numbers: number[] }) {
  const trpc = useTRPC();
  const holdouts = useQuery(trpc.holdouts.list.queryOptions({ projectId }));
  const [a, setA] = useState(numbers[1] ?? numbers[0]!);
  const [b, setB] = useState(numbers[0]!);
  const [holdoutId, setHoldoutId] = useState<string>("");
  const compare = useMutation(trpc.holdouts.compare.mutationOptions());
  if (holdouts.isPending) return <Loading label="Reading the project's holdouts…" />;
  if (holdouts.error) return <ErrorMessage>Could not read the holdouts: {errorText(holdouts.error)}</ErrorMessage>;
  if (!holdouts.data.length) {
    return (
      <p className="text-sm text-slate-700">
        This project has no holdout. Reserve one on the project’s Data page (or with <code>trainyard holdouts create --project NAME --data FILE</code>): data no training ever sees, to compare versions trained on different data.
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-3" data-testid="holdout-compare">
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <VersionPick label="Compare" value={a} numbers={numbers} onChange={setA} />
        <VersionPick label="with" value={b} numbers={numbers} onChange={setB} />
        <label className="flex items-center gap-2">
          <span>on</span>
          <select value={holdoutId} onChange={(e) => setHoldoutId(e.target.value)} className="min-h-10 rounded-md border border-slate-400 bg-white px-2">
            <option value="">the newest holdout of their kind</option>
            {holdouts.data.map((h) => (
              <option key={h.id} value={h.id}>
                {h.name} ({h.rows} {h.kind === "examples" ? "examples" : "rows"})
              </option>
            ))}
          </select>
        </label>
        <Button disabled={a === b || compare.isPending} onClick={() => compare.mutate({ modelId, versions: [a, b], ...(holdoutId ? { holdoutId } : {}) })}>
          Compare on the holdout
        </Button>
      </div>
      {a === b && <p className="text-sm text-slate-700">Choose two different versions.</p>}
      {compare.isPending && <Loading label="Scoring both versions on the holdout (a minute or so)…" />}
      {compare.error && <ErrorMessage>Could not compare on the holdout: {errorText(compare.error)}</ErrorMessage>}
      {compare.data && !compare.isPending && <Result r={compare.data} />}
    </div>
  );
}
