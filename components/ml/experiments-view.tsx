import { EmptyState } from "@/components/ui/status-message";

export function ExperimentsView({ projectId: _projectId }: { projectId: string }) {
  return (
    <section aria-labelledby="experiments-heading" className="flex flex-col gap-4">
      <h2 id="experiments-heading" className="text-lg font-semibold">
        Experiments
      </h2>
      <EmptyState title="No experiments yet">
        Each training run becomes an experiment listed here with its status, score and time. Start one from the
        training wizard once a dataset is added.
      </EmptyState>
    </section>
  );
}
