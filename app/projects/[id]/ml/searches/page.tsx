import { SearchesList } from "@/components/searches/searches-list";

export default async function SearchesPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <SearchesList projectId={id} />;
}
