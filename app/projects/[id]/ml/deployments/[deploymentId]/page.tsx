import { DeploymentPage } from "@/components/deployments/deployment-page";

export default async function DeploymentRoute({ params }: { params: Promise<{ id: string; deploymentId: string }> }) {
  const { id, deploymentId } = await params;
  return <DeploymentPage projectId={id} deploymentId={deploymentId} />;
}
