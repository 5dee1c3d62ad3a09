import { Suspense } from "react";
import { TrainWizard } from "@/components/wizard/train-wizard";
import { Loading } from "@/components/ui/status-message";

export default async function TrainPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <Suspense fallback={<Loading label="Loading the wizard…" />}>
      <TrainWizard projectId={id} />
    </Suspense>
  );
}
