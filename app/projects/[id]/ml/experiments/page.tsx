import { ExperimentsView } from "@/components/ml/experiments-view";

export default async function ExperimentsPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <ExperimentsView projectId={id} />;
}
