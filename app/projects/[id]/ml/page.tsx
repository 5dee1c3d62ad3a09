import { OverviewView } from "@/components/ml/overview-view";

export default async function OverviewPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <OverviewView projectId={id} />;
}
