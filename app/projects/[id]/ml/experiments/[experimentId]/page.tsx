import { ExperimentPage } from "@/components/experiment/experiment-page";

export default async function ExperimentRoute({ params }: { params: Promise<{ id: string; experimentId: string }> }) {
  const { id, experimentId } = await params;
  return <ExperimentPage projectId={id} experimentId={experimentId} />;
}
