import { ModelsView } from "@/components/ml/models-view";
import { RetentionPanel } from "@/components/registry/retention-panel";

export default async function ModelsPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <div className="flex min-w-0 flex-col gap-4">
      <ModelsView projectId={id} />
      <RetentionPanel projectId={id} />
    </div>
  );
}
