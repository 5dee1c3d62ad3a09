"use client";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { useTRPC } from "@/components/providers/trpc";

/** Starts (once; cached server-side per dataset and target) and follows the data checks. */
export function useChecks(datasetId: string | null, target: string | null) {
  const trpc = useTRPC();
  const input = { id: datasetId ?? "", target: target ?? "", positiveClass: null };
  const start = useMutation(trpc.datasets.startChecks.mutationOptions());
  const checks = useQuery({
    ...trpc.datasets.checks.queryOptions(input),
    enabled: Boolean(datasetId && target),
    refetchInterval: (q) => (q.state.data?.status === "running" ? 2000 : false),
  });
  const { mutate } = start;
  useEffect(() => {
    if (datasetId && target && checks.isSuccess && (checks.data === null || checks.data.status === "failed") && !start.isPending && !start.isSuccess) {
      mutate(input, { onSuccess: () => void checks.refetch() });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [datasetId, target, checks.isSuccess, checks.data]);
  const view = start.data && (!checks.data || checks.data.status === "running") ? (checks.data ?? start.data) : checks.data;
  return {
    view,
    result: view?.status === "ready" ? view.result : null,
    error: start.error ?? checks.error,
    pending: checks.isPending || start.isPending || view?.status === "running",
    retry: () => mutate(input, { onSuccess: () => void checks.refetch() }),
  };
}
