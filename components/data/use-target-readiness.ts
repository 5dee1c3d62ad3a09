"use client";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc";

type Task = "binary" | "multiclass" | "regression";
type Split = { strategy: "random" } | { strategy: "group" | "time"; column: string };

/**
 * Whether the chosen target, task and columns can train, with the reasons: the server's
 * rules (server/experiments/target-readiness.ts), the same ones experiments.start applies.
 * `ready` is null while there is no answer yet.
 */
export function useTargetReadiness(datasetId: string | null, target: string | null, task: Task | null, excludeColumns: string[] = [], split: Split = { strategy: "random" }) {
  const trpc = useTRPC();
  const enabled = Boolean(datasetId && target && task);
  const q = useQuery({
    ...trpc.experiments.readiness.queryOptions({ datasetId: datasetId ?? "", target: target ?? "", task: task ?? "multiclass", excludeColumns, split }),
    enabled,
  });
  return {
    ready: enabled && q.data ? q.data.ready : null,
    refusals: enabled ? (q.data?.refusals ?? []) : [],
    warnings: enabled ? (q.data?.warnings ?? []) : [],
    error: enabled ? q.error : null,
    pending: enabled && q.isPending,
  };
}
