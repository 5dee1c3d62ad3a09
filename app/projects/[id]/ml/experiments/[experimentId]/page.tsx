import { ExperimentByKind } from "@/components/finetune/experiment-by-kind";

export default async function ExperimentRoute({ params }: { params: Promise<{ id: string; experimentId: string }> }) {
  const { id, experimentId } = await params;
  return <ExperimentByKind projectId={id} experimentId={experimentId} />;
}
