"use client";
/**
 * Live log of one step's job, read by byte offset through trpc.jobs.logs: the tail first
 * (the last 64 KiB), then each poll asks only for what came after. "Follow" keeps the view
 * at the end; the search filters the lines already read.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { ErrorMessage } from "@/components/ui/status-message";
import { errorText } from "@/components/ui/error-text";
import type { StepView } from "@/server/experiments/experiment-views";
import { filterLog } from "./format";

const TAIL_BYTES = 64 * 1024;
const MAX_KEPT = 512 * 1024;

export function StepLogs({ steps, defaultStep }: { steps: StepView[]; defaultStep: string | null }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const withJobs = steps.filter((s) => s.jobId);
  const [picked, setPicked] = useState<string | null>(null);
  const step = withJobs.find((s) => s.step === (picked ?? defaultStep)) ?? withJobs[withJobs.length - 1];
  const [text, setText] = useState("");
  const [error, setError] = useState<unknown>(null);
  const [follow, setFollow] = useState(true);
  const [search, setSearch] = useState("");
  const pre = useRef<HTMLPreElement>(null);
  const jobId = step?.jobId ?? null;
  const active = step ? !["succeeded", "failed", "cancelled", "timed_out"].includes(step.state ?? "") : false;

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
  const lines = filterLog(text, search);
  return (
    <section aria-labelledby="logs-heading" className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-4">
      <h3 id="logs-heading" className="text-base font-semibold">
        Log
      </h3>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="flex flex-col gap-1">
          <label htmlFor="log-step" className="text-sm font-medium">
            Step
          </label>
          <select id="log-step" className="min-h-10 rounded-md border border-slate-400 bg-white px-2" value={step?.step ?? ""} onChange={(e) => setPicked(e.target.value)}>
            {withJobs.map((s) => (
              <option key={s.step} value={s.step}>
                {s.step.replace(/_/g, " ")} ({s.state})
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
      <pre ref={pre} tabIndex={0} aria-label={`Log of ${step?.step ?? "step"}`} className="max-h-72 overflow-auto whitespace-pre-wrap break-all rounded bg-slate-900 p-2 text-xs text-slate-100">
        {lines.length && text ? lines.join("\n") : search ? "No line matches." : "The log is empty so far."}
      </pre>
    </section>
  );
}
