"use client";
import { useQuery } from "@tanstack/react-query";
import { useRef, useState, type FormEvent } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { ErrorMessage } from "@/components/ui/status-message";
import { formatBytes } from "@/contracts/vocabulary";
import { formatElapsed } from "./format";
import { uploadDataset } from "./upload-xhr";

interface Progress {
  loaded: number;
  total: number;
  startedAt: number;
  now: number;
}

/** Upload a CSV/TSV/Parquet/gzip CSV with a progress bar; offers Latin-1 after an invalid_utf8 refusal. */
export function UploadForm({ projectId, onUploaded }: { projectId: string; onUploaded: (datasetId: string) => void }) {
  const trpc = useTRPC();
  // The cap is checked again by the server; checking here first spares sending a file that would be refused.
  const cap = useQuery(trpc.settings.get.queryOptions()).data?.values.uploadMaxBytes;
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [error, setError] = useState<{ message: string; code?: string } | null>(null);
  const [abort, setAbort] = useState<(() => void) | null>(null);

  const send = async (f: File, encoding: "utf-8" | "latin-1") => {
    setError(null);
    if (cap !== undefined && f.size > cap) {
      setError({ message: `${f.name} is ${formatBytes(f.size)}, larger than the upload cap of ${formatBytes(cap)} (Settings → Data). Nothing was sent.`, code: "too_large" });
      return;
    }
    const startedAt = Date.now();
    setProgress({ loaded: 0, total: f.size, startedAt, now: startedAt });
    const up = uploadDataset(projectId, f, encoding, (loaded, total) => setProgress({ loaded, total, startedAt, now: Date.now() }));
    setAbort(() => up.abort);
    const res = await up.promise;
    setAbort(null);
    setProgress(null);
    if (res.ok && res.datasetId) {
      setFile(null);
      if (input.current) input.current.value = "";
      onUploaded(res.datasetId);
    } else setError({ message: res.error ?? "The upload failed.", code: res.code });
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (file) void send(file, "utf-8");
  };
  const pct = progress && progress.total > 0 ? Math.round((progress.loaded / progress.total) * 100) : 0;
  return (
    <form onSubmit={submit} className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4" aria-labelledby="upload-heading">
      <h3 id="upload-heading" className="text-base font-semibold">
        Upload a file
      </h3>
      <p className="text-sm text-slate-700">CSV, TSV, Parquet or gzip-compressed CSV. The file is copied into Trainyard’s store once and never changed.</p>
      <label htmlFor="dataset-file" className="text-sm font-medium">
        Data file
      </label>
      <input
        id="dataset-file"
        ref={input}
        type="file"
        accept=".csv,.tsv,.txt,.parquet,.gz,text/csv,text/tab-separated-values"
        onChange={(e) => setFile(e.target.files?.[0] ?? null)}
        className="min-h-10 text-sm file:mr-3 file:min-h-10 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:text-sm"
      />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={!file || progress !== null}>
          Upload
        </Button>
        {abort && (
          <Button variant="secondary" onClick={() => abort()}>
            Cancel upload
          </Button>
        )}
      </div>
      {progress && (
        <div className="flex flex-col gap-1" data-testid="upload-progress">
          <progress className="h-3 w-full" aria-label="Upload progress" max={100} value={pct} />
          <p className="text-sm text-slate-700" role="status">
            Uploading {file?.name}: {pct}% ({formatBytes(progress.loaded)} of {formatBytes(progress.total)}), {formatElapsed(progress.now - progress.startedAt)}
          </p>
        </div>
      )}
      {error && (
        <div className="flex flex-col gap-2">
          <ErrorMessage>{error.message}</ErrorMessage>
          {error.code === "invalid_utf8" && file && (
            <Button variant="secondary" className="self-start" onClick={() => void send(file, "latin-1")}>
              Read it as Latin-1
            </Button>
          )}
        </div>
      )}
    </form>
  );
}
