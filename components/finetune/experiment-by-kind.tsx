"use client";
/**
 * An experiment's page by its kind: a fine-tuning experiment has its own page and view
 * (finetune.get); every other one is the tabular page. The kind comes from the project's
 * experiment list (cached when the user came from it).
 */
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc";
import { ExperimentPage } from "@/components/experiment/experiment-page";
import { QueryState } from "@/components/ui/query-state";
import { FineTunePage } from "./finetune-page";

export function ExperimentByKind({ projectId, experimentId }: { projectId: string; experimentId: string }) {
  const trpc = useTRPC();
  const list = useQuery(trpc.experiments.list.queryOptions({ projectId }));
  if (!list.data) return <QueryState query={list} loading="Loading the experiment…" failure="Could not load the experiment" />;
  const kind = list.data.find((e) => e.id === experimentId)?.kind;
  return kind === "finetune" ? <FineTunePage projectId={projectId} experimentId={experimentId} /> : <ExperimentPage projectId={projectId} experimentId={experimentId} />;
}
