"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { MonitorView } from "@/contracts/monitoring/monitoring";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { errorText } from "@/components/ui/error-text";
import { QueryState } from "@/components/ui/query-state";
import { SelectField } from "@/components/ui/select-field";
import { monitorSentence, VERDICT_WORDS } from "./monitor-words";
import { HistogramCompare, WindowCharts } from "./window-charts";

/**
 * A deployment's monitor: the verdict in words first, then Check now / Pause / Resume, the
 * windows as a table and as charts, and one column's bins beside the training data's. With
 * no monitor yet, what one does and a button to start it.
 */
export function MonitorPanel({ deploymentId }: { deploymentId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.monitors.list.queryOptions({ deploymentId }));
  const refresh = () => void queryClient.invalidateQueries({ queryKey: trpc.monitors.list.queryKey({ deploymentId }) });
  const create = useMutation(trpc.monitors.create.mutationOptions({ onSuccess: refresh }));
  const m = list.data?.at(-1);
  return (
    <div className="flex flex-col gap-3 text-sm" data-testid="monitor-panel">
      <QueryState query={list} loading="Loading its monitor…" failure="Could not load its monitor" />
      {list.data && !m && (
        <>
          <p className="text-slate-700">
            A monitor compares each window of 200 requests with a reference — a tabular model&apos;s training data, column by column; a language model&apos;s first window of traffic, by prompt and answer length, speed and how answers end — and counts failures and latency. It keeps counts only, never a request&apos;s values or text.
          </p>
          <div>
            <Button disabled={create.isPending} onClick={() => create.mutate({ deploymentId })}>
              Watch this deployment
            </Button>
          </div>
          {create.error && <p role="alert" className="text-red-800">{errorText(create.error)}</p>}
        </>
      )}
      {m && <MonitorDetail m={m} onChange={refresh} />}
    </div>
  );
}

function MonitorDetail({ m, onChange }: { m: MonitorView; onChange: () => void }) {
  const trpc = useTRPC();
  const options = { onSuccess: onChange };
  const check = useMutation(trpc.monitors.check.mutationOptions(options));
  const pause = useMutation(trpc.monitors.pause.mutationOptions(options));
  const resume = useMutation(trpc.monitors.resume.mutationOptions(options));
  const retry = useMutation(trpc.monitors.retry.mutationOptions(options));
  const reference = useQuery({ ...trpc.monitors.reference.queryOptions({ monitorId: m.id }), enabled: m.state === "watching" || m.state === "paused" });
  const columns = reference.data?.reference?.columns ?? [];
  const [chosen, setChosen] = useState<string>("");
  const column = columns.find((c) => c.name === chosen) ?? columns.find((c) => m.alertingColumns.includes(c.name)) ?? columns[0];
  const judged = m.windows.filter((w) => w.verdict);
  const failed = [check, pause, resume, retry].find((x) => x.error)?.error;
  const busy = [check, pause, resume, retry].some((x) => x.isPending);
  return (
    <>
      <p role="status" className={m.alertingColumns.length ? "font-medium text-amber-900" : "text-slate-800"} data-testid="monitor-sentence">
        {monitorSentence(m)}
      </p>
      <div className="flex flex-wrap gap-2">
        {m.state === "watching" && (
          <>
            <Button variant="secondary" disabled={busy} onClick={() => check.mutate({ monitorId: m.id })}>Check now</Button>
            <Button variant="secondary" disabled={busy} onClick={() => pause.mutate({ monitorId: m.id })}>Pause</Button>
          </>
        )}
        {m.state === "paused" && <Button disabled={busy} onClick={() => resume.mutate({ monitorId: m.id })}>Resume</Button>}
        {m.state === "failed" && <Button disabled={busy} onClick={() => retry.mutate({ monitorId: m.id })}>Try again</Button>}
      </div>
      {failed && <p role="alert" className="text-red-800">{errorText(failed)}</p>}
      {judged.length > 0 && (
        <div className="overflow-x-auto">
          <table className="min-w-full text-left" data-testid="monitor-windows">
            <caption className="sr-only">Windows of release {m.release.number}, oldest first</caption>
            <thead>
              <tr className="border-b border-slate-300">
                <th scope="col" className="py-1 pr-3">Window</th>
                <th scope="col" className="py-1 pr-3">Requests</th>
                <th scope="col" className="py-1 pr-3">Verdict</th>
                <th scope="col" className="py-1 pr-3">Drifted columns</th>
                <th scope="col" className="py-1 pr-3">Failures</th>
                <th scope="col" className="py-1 pr-3">p50</th>
                <th scope="col" className="py-1 pr-3">p95</th>
              </tr>
            </thead>
            <tbody>
              {judged.slice(-10).map((w) => (
                <tr key={w.seq} className="border-b border-slate-100">
                  <td className="py-1 pr-3">{w.seq}</td>
                  <td className="py-1 pr-3">{w.n}</td>
                  <td className="py-1 pr-3">{VERDICT_WORDS[w.verdict!]}</td>
                  <td className="py-1 pr-3">{w.driftedColumns.join(", ") || "—"}</td>
                  <td className="py-1 pr-3">{w.failureRate === null ? "—" : `${(w.failureRate * 100).toFixed(1)}%`}</td>
                  <td className="py-1 pr-3">{w.p50Ms === null ? "—" : `≤ ${w.p50Ms} ms`}</td>
                  <td className="py-1 pr-3">{w.p95Ms === null ? "—" : `≤ ${w.p95Ms} ms`}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {judged.length > 0 && column && (
        <>
          <SelectField id={`monitor-column-${m.id}`} label="Column" value={column.name} onChange={setChosen} options={columns.map((c) => [c.name, c.name] as const)} />
          <WindowCharts windows={judged} column={column.name} />
          <HistogramCompare column={column} window={judged.at(-1)} />
        </>
      )}
    </>
  );
}
