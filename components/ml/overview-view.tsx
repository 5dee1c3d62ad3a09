"use client";
import { useQueries, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "@/components/providers/trpc";
import { EmptyState, ErrorMessage, Loading } from "@/components/ui/status-message";
import { errorText } from "@/components/ui/error-text";
import { STATUS_LABELS, formatBytes, formatDuration, formatMetric, totalUsage, type StepUsage } from "@/components/experiment/format";

const Card = ({ title, children }: { title: string; children: React.ReactNode }) => (
  <div className="flex flex-col gap-1 rounded-lg border border-slate-200 bg-white p-4">
    <h3 className="text-sm font-semibold text-slate-900">{title}</h3>
    <div className="text-sm text-slate-800">{children}</div>
  </div>
);

/** What are we improving, who is working, is it better, what did it cost, what can I do with the model. */
export function OverviewView({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const list = useQuery(trpc.experiments.list.queryOptions({ projectId }));
  const targets = useQuery(trpc.targets.list.queryOptions());
  const all = list.data ?? [];
  const latest = all[0];
  const active = all.filter((e) => e.status === "running" || e.status === "queued").slice(0, 5);
  const succeeded = all.find((e) => e.status === "succeeded");
  const ids = [...new Set([...active.map((e) => e.id), ...(succeeded ? [succeeded.id] : [])])];
  const details = useQueries({ queries: ids.map((id) => trpc.experiments.get.queryOptions({ id })) });
  const detail = (id: string) => details[ids.indexOf(id)]?.data;
  const computerName = (targetId: string | undefined) => (targets.data ?? []).find((t) => t.id === targetId)?.name ?? "a computer";
  const best = succeeded ? detail(succeeded.id) : undefined;
  const usage = best ? totalUsage(best.steps.map((s) => s.usage as StepUsage)) : null;
  const train = (
    <Link href={`/projects/${projectId}/ml/train`} className="inline-flex min-h-10 items-center self-start rounded-md bg-blue-700 px-3 py-2 text-sm font-medium text-white hover:bg-blue-800">
      Train a prediction model
    </Link>
  );
  return (
    <section aria-labelledby="overview-heading" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="overview-heading" className="text-lg font-semibold">
          Overview
        </h2>
        {train}
      </div>
      {list.isPending && <Loading label="Loading the overview…" />}
      {list.error && <ErrorMessage>Could not load the overview: {errorText(list.error)}</ErrorMessage>}
      {list.data && all.length === 0 && (
        <EmptyState title="Nothing trained yet">Start with “Train a prediction model”: choose a file, the column to predict, and a time limit.</EmptyState>
      )}
      {latest && (
        <div className="grid gap-3 sm:grid-cols-2">
          <Card title="What we are improving">
            Predicting <strong>{latest.target}</strong> ({latest.task}), measured by {latest.metric} — from{" "}
            <Link className="text-blue-800 underline" href={`/projects/${projectId}/ml/experiments/${latest.id}`}>
              {latest.name}
            </Link>
            .
          </Card>
          <Card title="Which computer is working">
            {active.length === 0 ? (
              "Nothing is running now."
            ) : (
              <ul>
                {active.map((e) => (
                  <li key={e.id}>
                    <Link className="text-blue-800 underline" href={`/projects/${projectId}/ml/experiments/${e.id}`}>
                      {e.name}
                    </Link>{" "}
                    — {STATUS_LABELS[e.status]} on {computerName(detail(e.id)?.targetId)}
                  </li>
                ))}
              </ul>
            )}
          </Card>
          <Card title="Is the candidate better?">
            {!succeeded
              ? "No experiment has finished yet."
              : succeeded.betterThanBaseline === true
                ? `Yes: ${succeeded.metric} ${formatMetric(succeeded.candidate)} vs baseline ${formatMetric(succeeded.baseline)} (${succeeded.name}).`
                : best?.badges.comparable === false
                  ? "The latest result cannot be compared with its baseline."
                  : `No: ${succeeded.metric} ${formatMetric(succeeded.candidate)} vs baseline ${formatMetric(succeeded.baseline)}.`}
          </Card>
          <Card title="What it cost">
            {best && usage
              ? `${formatDuration(best.seconds)} in total; ${formatDuration(usage.cpuSeconds)} of CPU; peak memory ${formatBytes(usage.peakRssBytes)}.`
              : "Shown once an experiment has finished."}
          </Card>
          <Card title="What you can do with the model">
            {best?.exportSha256 ? (
              <ul className="flex flex-col gap-1">
                <li>
                  <a className="text-blue-800 underline" href={`/api/experiments/${encodeURIComponent(best.id)}/export`} download>
                    Download the export
                  </a>{" "}
                  ({formatBytes(best.exportBytes)})
                </li>
                <li>
                  <Link className="text-blue-800 underline" href={`/projects/${projectId}/ml/experiments/${best.id}#try-heading`}>
                    Try predictions
                  </Link>
                </li>
              </ul>
            ) : (
              "A successful experiment gives you a model to download and to try."
            )}
          </Card>
        </div>
      )}
    </section>
  );
}
