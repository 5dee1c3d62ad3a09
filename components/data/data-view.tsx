"use client";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { errorText } from "@/components/ui/error-text";
import { EmptyState, ErrorMessage, Loading } from "@/components/ui/status-message";
import { DatasetDetail } from "./dataset-detail";
import { DatasetList } from "./dataset-list";
import { DeleteDataset } from "./delete-dataset";
import { HoldoutsSection } from "./holdouts-section";
import { PathForm } from "./path-form";
import { UploadForm } from "./upload-form";

/** Project → ML → Data: add data, list datasets, open one, delete one; the project's holdouts below. */
export function DataView({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const list = useQuery({
    ...trpc.datasets.list.queryOptions({ projectId }),
    refetchInterval: (q) => (q.state.data?.some((d) => d.status === "profiling") ? 2000 : false),
  });
  const [selected, setSelected] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const added = (id: string) => {
    setSelected(id);
    void list.refetch();
  };
  return (
    <section aria-labelledby="data-heading" className="flex flex-col gap-4">
      <h2 id="data-heading" className="text-lg font-semibold">
        Data
      </h2>
      <div className="grid gap-3 md:grid-cols-2">
        <UploadForm projectId={projectId} onUploaded={added} />
        <PathForm projectId={projectId} onRegistered={added} />
      </div>
      {list.isPending && <Loading label="Loading datasets…" />}
      {list.error && <ErrorMessage>Could not load the datasets: {errorText(list.error)}</ErrorMessage>}
      {list.data && list.data.length === 0 && <EmptyState title="No data yet">Upload a CSV, TSV or Parquet file to start. Each file becomes an immutable snapshot.</EmptyState>}
      {list.data && list.data.length > 0 && (
        <DatasetList projectId={projectId} datasets={list.data} selectedId={selected} onSelect={setSelected} onDelete={setDeleting} />
      )}
      {deleting && (
        <DeleteDataset
          datasetId={deleting}
          onDone={() => {
            if (selected === deleting) setSelected(null);
            setDeleting(null);
            void list.refetch();
          }}
        />
      )}
      {selected && list.data?.some((d) => d.id === selected) && <DatasetDetail key={selected} datasetId={selected} />}
      <HoldoutsSection projectId={projectId} />
    </section>
  );
}
