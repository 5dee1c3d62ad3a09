import { EmptyState } from "@/components/ui/status-message";

export function OverviewView({ projectId: _projectId }: { projectId: string }) {
  return (
    <section aria-labelledby="overview-heading" className="flex flex-col gap-4">
      <h2 id="overview-heading" className="text-lg font-semibold">
        Overview
      </h2>
      <EmptyState title="Nothing trained yet">
        This page will show what you are improving, which computer is working, and whether the latest model beats its
        baseline. Training a prediction model from a CSV file arrives with the training wizard; until then there is
        nothing to summarise.
      </EmptyState>
    </section>
  );
}
