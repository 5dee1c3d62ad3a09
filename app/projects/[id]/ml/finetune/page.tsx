import { FineTuneWizard } from "@/components/finetune/finetune-wizard";

export default async function FineTunePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <FineTuneWizard projectId={id} />;
}
