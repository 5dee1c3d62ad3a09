"use client";
import { useQueries, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "@/components/providers/trpc";
import { EmptyState } from "@/components/ui/status-message";
import { QueryState } from "@/components/ui/query-state";
import { TabHeading } from "./tab-heading";
import { experimentStatusLabel, formatBytes } from "@/contracts/vocabulary";
import { formatDuration, formatMetric, totalUsage, type StepUsage } from "@/components/experiment/format";
import { InUse } from "@/components/registry/in-use";
import { DeploymentsHealth } from "@/components/monitoring/deployments-health";
import { fineTuneBetterWords, fineTuneCostWords, fineTuneImprovingWords } from "./overview-finetune";

const Card = ({ title, children }: { title: string; children: React.ReactNode }) => (
  <div className="flex flex-col gap-1 rounded-lg border border-slate-200 bg-white p-4">
    <h3 className="text-sm font-semibold text-slate-900">{title}</h3>
    <div className="text-sm text-slate-800">{children}</div>
  </div>
);

/**
 * What are we improving, who is working, is it better, what did it cost, what can I do
 * with the model. "What we are improving" and "Is the candidate better?" both speak of
 * the latest experiment, whatever its state (a running or failed run is said as such);
 * cost and model come from the latest run that produced one. A fine-tuning experiment
 * answers in its own terms (base model, adapter, loss per answer token: overview-finetune.ts).
 */
type ListItem = { name: string; status: string; metric: string; candidate: number | null; baseline: number | null; betterThanBaseline: boolean | null; comparable: boolean | null };

/** The answer for one experiment, in its own state's words. */
function betterWords(e: ListItem, why: string | null, named = true): string {
  const of = named ? ` (${e.name})` : "";
  switch (e.status) {
    case "succeeded":
      if (e.comparable === false) return `Cannot say: its result cannot be compared with its baseline${of}.`;
      return e.betterThanBaseline
        ? `Yes: ${e.metric} ${formatMetric(e.candidate)} vs baseline ${formatMetric(e.baseline)}${of}.`
        : `No: ${e.metric} ${formatMetric(e.candidate)} vs baseline ${formatMetric(e.baseline)}, not better${of}.`;
    case "running":
      return `Not known yet: ${e.name} is still running.`;
    case "failed":
      return `No answer: ${e.name} failed before it was scored.${why ? ` ${why}` : ""}`;
    case "cancelled":
      return `No answer: ${e.name} was cancelled before it was scored.`;
    case "timed_out":
      return `No answer: ${e.name} ran out of time before it was scored.`;
    default:
      return `Not known yet: ${e.name} has not reported how it ended.`;
  }
}

export function OverviewView({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const list = useQuery(trpc.experiments.list.queryOptions({ projectId }));
  const targets = useQuery(trpc.targets.list.queryOptions());
  const all = list.data ?? [];
  const latest = all[0];
  const active = all.filter((e) => e.status === "running").slice(0, 5);
  const succeeded = all.find((e) => e.status === "succeeded");
  // Each kind has its own view: a fine-tuning experiment's is finetune.get (experiments.get refuses it).
  const shown = !latest ? [] : succeeded && succeeded.id !== latest.id ? [latest, succeeded] : [latest];
  const tabularIds = shown.filter((e) => e.kind !== "finetune").map((e) => e.id);
  const fineTuneIds = shown.filter((e) => e.kind === "finetune").map((e) => e.id);
  const details = useQueries({ queries: tabularIds.map((id) => trpc.experiments.get.queryOptions({ id })) });
  const fineTunes = useQueries({ queries: fineTuneIds.map((id) => trpc.finetune.get.queryOptions({ id })) });
  const detail = (id: string) => details[tabularIds.indexOf(id)]?.data;
  const fineTune = (id: string) => fineTunes[fineTuneIds.indexOf(id)]?.data;
  const computerName = (targetId: string) => (targets.data ?? []).find((t) => t.id === targetId)?.name ?? "a computer";
  const best = succeeded ? detail(succeeded.id) : undefined;
  const bestFineTune = succeeded ? fineTune(succeeded.id) : undefined;
  const usage = best ? totalUsage(best.steps.map((s) => s.usage as StepUsage)) : null;
  const latestFineTune = latest ? fineTune(latest.id) : undefined;
  const better = (e: ListItem & { id: string; kind: string }, named = true) => {
    if (e.kind !== "finetune") return betterWords(e, named ? (detail(e.id)?.outcome?.summary ?? null) : null, named);
    const v = fineTune(e.id);
    return v ? fineTuneBetterWords(v, named) : "Loading…";
  };
  return (
    <section aria-labelledby="overview-heading" className="flex flex-col gap-4">
      <TabHeading id="overview-heading" title="Overview" projectId={projectId} />
      <DeploymentsHealth projectId={projectId} />
      <QueryState query={list} loading="Loading the overview…" failure="Could not load the overview" />
      {list.data && all.length === 0 && (
        <EmptyState title="Nothing trained yet">Start with “Train a prediction model”: choose a file, the column to predict, and a time limit.</EmptyState>
      )}
      {latest && (
        <div className="grid gap-3 sm:grid-cols-2">
          <Card title="What we are improving">
            <span data-testid="overview-improving">
              {latest.kind === "finetune" ? (
                latestFineTune ? fineTuneImprovingWords(latestFineTune) : `Fine-tuning ${latest.target} with a LoRA adapter`
              ) : (
                <>
                  Predicting <strong>{latest.target}</strong> ({latest.task}), measured by {latest.metric}
                </>
              )}{" "}
              — from{" "}
              <Link className="text-blue-800 underline" href={`/projects/${projectId}/ml/experiments/${latest.id}`}>
                {latest.name}
              </Link>{" "}
              ({experimentStatusLabel(latest.status).toLowerCase()}).
            </span>
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
                    — {experimentStatusLabel(e.status)} on {computerName(e.targetId)}
                  </li>
                ))}
              </ul>
            )}
          </Card>
          <Card title="Is the candidate better?">
            <span data-testid="overview-better">{better(latest)}</span>
            {succeeded && succeeded.id !== latest.id && (
              <span className="mt-1 block text-slate-700">
                The last run that finished,{" "}
                <Link className="text-blue-800 underline" href={`/projects/${projectId}/ml/experiments/${succeeded.id}`}>
                  {succeeded.name}
                </Link>
                , {better(succeeded, false)}
              </span>
            )}
          </Card>
          <Card title="What it cost">
            {bestFineTune && succeeded
              ? fineTuneCostWords(bestFineTune, succeeded.seconds)
              : best && usage
                ? `${formatDuration(best.seconds)} in total; ${formatDuration(usage.cpuSeconds)} of CPU; peak memory ${formatBytes(usage.peakRssBytes)}.`
                : "Shown once an experiment has succeeded."}
          </Card>
          <Card title="Which model is in use?">
            <InUse projectId={projectId} />
          </Card>
          <Card title="What you can do with the model">
            {bestFineTune?.export ? (
              <ul className="flex flex-col gap-1">
                <li>
                  <a className="text-blue-800 underline" href={bestFineTune.export.downloadUrl} download>
                    Download the adapter
                  </a>{" "}
                  ({formatBytes(bestFineTune.export.bytes)}: the LoRA weights, tokenizer, model card and a generate.py example)
                </li>
                <li>
                  <Link className="text-blue-800 underline" href={`/projects/${projectId}/ml/experiments/${bestFineTune.experiment.id}#ft-try-heading`}>
                    Try it: ask the adapter a question
                  </Link>
                </li>
              </ul>
            ) : best?.exportSha256 ? (
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
