import { SearchPage } from "@/components/searches/search-page";

export default async function SearchRoute({ params }: { params: Promise<{ id: string; searchId: string }> }) {
  const { id, searchId } = await params;
  return <SearchPage projectId={id} searchId={searchId} />;
}
