"use client";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc";
import { EmptyState } from "@/components/ui/status-message";
import { QueryState } from "@/components/ui/query-state";
import { ModelCard } from "@/components/registry/model-card";

/** The model registry: each model with the version in use, its versions, history and comparisons. */
export function ModelsView({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const list = useQuery(trpc.models.list.queryOptions({ projectId }));
  return (
    <section aria-labelledby="models-heading" className="flex min-w-0 flex-col gap-4">
      <h2 id="models-heading" className="text-lg font-semibold">
        Models
      </h2>
      <QueryState query={list} loading="Loading models…" failure="Could not load models" />
      {list.data && list.data.length === 0 && (
        <EmptyState title="No models yet">
          Register a finished experiment as a model version (“Register as a model version” on its page); then promote the version you want in use.
        </EmptyState>
      )}
      {list.data?.map((m) => <ModelCard key={m.id} projectId={projectId} model={m} />)}
    </section>
  );
}
