import { DataView } from "@/components/data/data-view";

export default async function DataPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <DataView projectId={id} />;
}
