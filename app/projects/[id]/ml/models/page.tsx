import { ModelsView } from "@/components/ml/models-view";

export default async function ModelsPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <ModelsView projectId={id} />;
}
