import { EmptyState } from "@/components/ui/status-message";

export function ModelsView({ projectId: _projectId }: { projectId: string }) {
  return (
    <section aria-labelledby="models-heading" className="flex flex-col gap-4">
      <h2 id="models-heading" className="text-lg font-semibold">
        Models
      </h2>
      <EmptyState title="No models yet">
        Models you export from successful experiments appear here, with their scores against the baseline and a
        checksum to verify the download.
      </EmptyState>
    </section>
  );
}
