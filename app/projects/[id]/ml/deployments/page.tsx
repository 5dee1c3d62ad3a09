import { DeploymentsView } from "@/components/deployments/deployments-view";

export default async function DeploymentsPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <DeploymentsView projectId={id} />;
}
