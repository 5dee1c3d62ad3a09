"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { errorText } from "@/components/ui/error-text";
import { ErrorMessage } from "@/components/ui/status-message";
import { QueryState } from "@/components/ui/query-state";
import { controllerJobLifecycle } from "@/contracts/lifecycles";
import { jobStateLabel } from "@/contracts/vocabulary";
import { formatAge, formatTime, STATE_STYLE } from "./format";

const ACTIVE = controllerJobLifecycle.active;

/** Jobs that hold (or may hold) resources on one computer, with cancel. */
export function ComputerJobs({ targetId, targetName }: { targetId: string; targetName: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const jobs = useQuery(trpc.jobs.list.queryOptions({ targetId, states: [...ACTIVE], limit: 50 }));
  const cancel = useMutation(
    trpc.jobs.cancel.mutationOptions({
      onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.jobs.list.queryKey() }),
    }),
  );
  const headingId = `jobs-${targetId}`;
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-2">
      <h4 id={headingId} className="text-sm font-semibold text-slate-900">
        Jobs on {targetName}
      </h4>
      <QueryState query={jobs} loading="Loading jobs…" failure="Could not load the jobs" />
      {jobs.data && jobs.data.length === 0 && <p className="text-sm text-slate-700">Nothing is running here.</p>}
      {jobs.data && jobs.data.length > 0 && (
        <ul className="flex flex-col gap-2" aria-label={`Jobs on ${targetName}`}>
          {jobs.data.map((j) => (
            <li key={j.id} className="flex flex-col gap-1 rounded-md border border-slate-200 p-3 sm:flex-row sm:items-center sm:justify-between">
              <div className="flex min-w-0 flex-col gap-1">
                <div className="flex flex-wrap items-center gap-2">
                  <span className="font-medium text-slate-900">
                    {j.recipe}.{j.jobName}
                  </span>
                  <span className={`rounded px-2 py-0.5 text-xs font-medium ${STATE_STYLE[j.state] ?? ""}`}>{jobStateLabel(j.state)}</span>
                  {j.cancelRequestedAt && <span className="text-xs text-slate-700">cancel requested</span>}
                </div>
                <p className="text-xs text-slate-600">
                  {j.startedAt ? `started ${formatTime(j.startedAt)}` : `admitted ${formatTime(j.createdAt)}`}
                  {j.waiting ? ` — ${j.waiting}` : ""}
                </p>
                {j.unreachableSince && (
                  <p className="text-xs font-medium text-amber-900">Unreachable since {formatTime(j.unreachableSince)} ({formatAge(j.unreachableSince)})</p>
                )}
                {j.state === "unknown" && j.detail && <p className="text-xs text-amber-900">{j.detail}</p>}
              </div>
              <Button
                variant="secondary"
                disabled={Boolean(j.cancelRequestedAt) || (cancel.isPending && cancel.variables?.id === j.id)}
                onClick={() => cancel.mutate({ id: j.id })}
                aria-label={`Cancel ${j.recipe}.${j.jobName} on ${targetName}`}
              >
                {j.cancelRequestedAt ? "Cancelling…" : "Cancel"}
              </Button>
            </li>
          ))}
        </ul>
      )}
      {cancel.error && <ErrorMessage>Could not cancel: {errorText(cancel.error)}</ErrorMessage>}
    </section>
  );
}
