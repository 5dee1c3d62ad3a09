"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { ErrorMessage, Loading } from "@/components/ui/status-message";
import { errorText } from "@/components/ui/error-text";
import { DataPreview } from "./data-preview";
import { UploadFile } from "./upload-file";

/**
 * Step 2: upload a file, reuse a dataset of the project, or register a path inside an
 * allowed folder. When the project has exactly one dataset and none is chosen yet, it is
 * chosen: there is nothing else to pick.
 */
export function StepData({ projectId, datasetId, onChange }: { projectId: string; datasetId: string | null; onChange: (id: string) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const datasets = useQuery(trpc.datasets.list.queryOptions({ projectId }));
  const settings = useQuery(trpc.settings.get.queryOptions());
  const [path, setPath] = useState("");
  const register = useMutation(
    trpc.datasets.registerPath.mutationOptions({
      onSuccess: (r) => {
        void queryClient.invalidateQueries({ queryKey: trpc.datasets.list.queryKey() });
        onChange(r.datasetId);
      },
    }),
  );
  const only = datasets.data?.length === 1 ? datasets.data[0] : undefined;
  useEffect(() => {
    if (!datasetId && only && only.status !== "failed") onChange(only.id);
  }, [datasetId, only, onChange]);
  const roots = settings.data?.values.allowedRoots ?? [];
  const submitPath = (e: FormEvent) => {
    e.preventDefault();
    register.mutate({ projectId, path, encoding: "utf-8" });
  };
  const chosen = (id: string) => {
    onChange(id);
    void queryClient.invalidateQueries({ queryKey: trpc.datasets.list.queryKey() });
  };
  return (
    <div className="flex flex-col gap-5">
      <UploadFile projectId={projectId} onUploaded={chosen} />

      <div className="flex flex-col gap-1">
        <label htmlFor="wizard-dataset" className="text-sm font-medium text-slate-800">
          Or reuse a dataset of this project
        </label>
        {datasets.isPending && <Loading label="Loading datasets…" />}
        {datasets.error && <ErrorMessage>Could not list datasets: {errorText(datasets.error)}</ErrorMessage>}
        {datasets.data && (
          <select
            id="wizard-dataset"
            className="min-h-10 max-w-full rounded-md border border-slate-400 bg-white px-2"
            value={datasetId ?? ""}
            onChange={(e) => e.target.value && onChange(e.target.value)}
          >
            <option value="">{datasets.data.length ? "Choose a dataset…" : "No datasets yet"}</option>
            {datasets.data.map((d) => (
              <option key={d.id} value={d.id}>
                {d.name} {d.rowCount !== null ? `(${d.rowCount} rows)` : `(${d.status})`}
              </option>
            ))}
          </select>
        )}
      </div>

      <form onSubmit={submitPath} className="flex flex-col gap-1">
        <label htmlFor="wizard-path" className="text-sm font-medium text-slate-800">
          Or use a file on the training computer
        </label>
        {settings.data && roots.length === 0 ? (
          <p className="text-sm text-slate-700">
            No folder is allowed for files by path yet. An owner can add one under <a className="text-blue-800 underline" href="/settings">Settings → Data → Allowed folders</a>; until then, upload the file.
          </p>
        ) : (
          <>
            <p className="text-sm text-slate-700">Allowed folders: {roots.join(", ") || "…"}</p>
            <div className="flex flex-col gap-2 sm:flex-row">
              <input
                id="wizard-path"
                value={path}
                onChange={(e) => setPath(e.target.value)}
                placeholder={`${roots[0] ?? "/data"}/file.csv`}
                className="min-h-10 flex-1 rounded-md border border-slate-400 px-3"
              />
              <Button type="submit" variant="secondary" disabled={!path || register.isPending}>
                {register.isPending ? "Copying…" : "Use this file"}
              </Button>
            </div>
          </>
        )}
        {register.error && <ErrorMessage>{errorText(register.error)}</ErrorMessage>}
      </form>

      {datasetId && <DataPreview datasetId={datasetId} />}
    </div>
  );
}
