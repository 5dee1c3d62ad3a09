"use client";
/**
 * Live log of one step's job, read by byte offset through trpc.jobs.logs: the tail first
 * (the last 64 KiB), then each poll asks only for what came after. "Follow" keeps the view
 * at the end; the search filters the lines already read. Known recipe noise is hidden
 * (log-noise.ts) and counted; "Download the full log" reads the whole log, noise included.
 * Once the run has ended the log is folded away: the results come first.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { ErrorMessage } from "@/components/ui/status-message";
import { errorText } from "@/components/ui/error-text";
import type { StepView } from "@/server/experiments/experiment-views";
import { controllerJobLifecycle } from "@/contracts/lifecycles";
import { filterLog } from "./format";
import { withoutNoise } from "./log-noise";

/** Reads a job's whole log by offset, for the download (the view keeps only the tail). */
async function readWholeLog(read: (offset: number) => Promise<{ data: string; nextOffset: number; eof: boolean }>): Promise<string> {
  let offset = 0;
  let text = "";
  for (;;) {
    const chunk = await read(offset);
    text += chunk.data;
    if (chunk.nextOffset === offset || chunk.eof) return text;
    offset = chunk.nextOffset;
  }
}

const TAIL_BYTES = 64 * 1024;
const MAX_KEPT = 512 * 1024;

export function StepLogs({ steps, defaultStep, ended }: { steps: StepView[]; defaultStep: string | null; ended: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const withJobs = steps.filter((s) => s.jobId);
  const [picked, setPicked] = useState<string | null>(null);
  const step = withJobs.find((s) => s.step === (picked ?? defaultStep)) ?? withJobs[withJobs.length - 1];
  const [text, setText] = useState("");
  const [error, setError] = useState<unknown>(null);
  const [follow, setFollow] = useState(true);
  const [search, setSearch] = useState("");
  const [downloading, setDownloading] = useState(false);
  const pre = useRef<HTMLPreElement>(null);
  const jobId = step?.jobId ?? null;
  const active = step ? !controllerJobLifecycle.isTerminal(step.state ?? "") : false;

  useEffect(() => {
    if (!jobId) return;
    let offset = -1;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let first = true;
    const read = async () => {
      try {
        if (offset < 0) {
          // Find the size first, then start at the tail.
          const probe = await queryClient.fetchQuery({ ...trpc.jobs.logs.queryOptions({ id: jobId, offset: 0, maxBytes: 1 }), staleTime: 0 });
          offset = Math.max(0, probe.size - TAIL_BYTES);
        }
        for (;;) {
          const chunk = await queryClient.fetchQuery({ ...trpc.jobs.logs.queryOptions({ id: jobId, offset }), staleTime: 0 });
          if (stopped) return;
          if (first || chunk.data) setText((t) => ((first ? "" : t) + chunk.data).slice(-MAX_KEPT));
          first = false;
          const moved = chunk.nextOffset !== offset;
          offset = chunk.nextOffset;
          if (!moved || chunk.eof) {
            if (chunk.eof && !active) return;
            break;
          }
        }
        setError(null);
      } catch (err) {
        if (!stopped) setError(err);
      }
      if (!stopped) timer = setTimeout(read, 1500);
    };
    void read();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    };
  }, [jobId, active, queryClient, trpc]);

  useEffect(() => {
    if (follow && pre.current) pre.current.scrollTop = pre.current.scrollHeight;
  }, [text, follow, search]);

  if (!withJobs.length) return <p className="text-sm text-slate-700">No step has started yet, so there is no log.</p>;
  const clean = withoutNoise(text);
  const lines = filterLog(clean.lines.join("\n"), search);
  const download = async () => {
    if (!jobId) return;
    setDownloading(true);
    try {
      const whole = await readWholeLog((offset) => queryClient.fetchQuery({ ...trpc.jobs.logs.queryOptions({ id: jobId, offset }), staleTime: 0 }));
      const url = URL.createObjectURL(new Blob([whole], { type: "text/plain;charset=utf-8" }));
      const a = document.createElement("a");
      a.href = url;
      a.download = `${step?.step ?? "step"}-${jobId}.log`;
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (err) {
      setError(err);
    } finally {
      setDownloading(false);
    }
  };
  const body = (
    <>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="flex flex-col gap-1">
          <label htmlFor="log-step" className="text-sm font-medium">
            Step
          </label>
          <select id="log-step" className="min-h-10 max-w-full rounded-md border border-slate-400 bg-white px-2" value={step?.step ?? ""} onChange={(e) => setPicked(e.target.value)}>
            {withJobs.map((s) => (
              <option key={s.step} value={s.step}>
                {s.label} ({s.stateWords})
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-1 flex-col gap-1">
          <label htmlFor="log-search" className="text-sm font-medium">
            Search the log
          </label>
          <input id="log-search" type="search" value={search} onChange={(e) => setSearch(e.target.value)} className="min-h-10 rounded-md border border-slate-400 px-3" />
        </div>
        <label className="flex min-h-10 items-center gap-2 text-sm">
          <input type="checkbox" className="h-5 w-5" checked={follow} onChange={(e) => setFollow(e.target.checked)} />
          Follow
        </label>
      </div>
      {error ? <ErrorMessage>The log could not be read: {errorText(error)} (retrying)</ErrorMessage> : null}
      <pre ref={pre} tabIndex={0} aria-label={`Log of ${step?.label ?? "step"}`} className="max-h-72 overflow-auto whitespace-pre-wrap break-all rounded bg-slate-900 p-2 text-xs text-slate-100">
        {lines.length && text ? lines.join("\n") : search ? "No line matches." : "The log is empty so far."}
      </pre>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-700">
        {clean.hidden > 0 && (
          <span data-testid="log-hidden">
            {clean.hidden} line{clean.hidden === 1 ? "" : "s"} of library noise hidden (a missing-GPU probe, internal clean-up).
          </span>
        )}
        <button type="button" className="min-h-10 text-blue-800 underline disabled:text-slate-500" disabled={downloading || !jobId} onClick={() => void download()}>
          {downloading ? "Reading the full log…" : "Download the full log"}
        </button>
      </div>
    </>
  );
  if (ended)
    return (
      <details className="rounded-lg border border-slate-200 bg-white p-4" data-testid="log-panel">
        <summary className="min-h-10 cursor-pointer text-base font-semibold">Log</summary>
        <div className="mt-2 flex flex-col gap-2">{body}</div>
      </details>
    );
  return (
    <section aria-labelledby="logs-heading" className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-4" data-testid="log-panel">
      <h3 id="logs-heading" className="text-base font-semibold">
        Log
      </h3>
      {body}
    </section>
  );
}
