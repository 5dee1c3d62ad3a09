"use client";
import { useRef, useState } from "react";
import { uploadDataset } from "@/components/data/upload-xhr";
import { ErrorMessage } from "@/components/ui/status-message";
import { formatBytes } from "@/contracts/vocabulary";

/** A JSONL file of examples sent to /api/datasets/upload with progress; answers the dataset it became. */
export function JsonlUpload({ id, label, projectId, onUploaded }: { id: string; label: string; projectId: string; onUploaded: (datasetId: string) => void }) {
  const [progress, setProgress] = useState<{ loaded: number; total: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const abort = useRef<(() => void) | null>(null);
  const upload = async (file: File) => {
    setError(null);
    setDone(null);
    setProgress({ loaded: 0, total: file.size });
    const req = uploadDataset(projectId, file, "utf-8", (loaded, total) => setProgress({ loaded, total }));
    abort.current = req.abort;
    const answer = await req.promise;
    abort.current = null;
    setProgress(null);
    if (answer.ok && answer.datasetId) {
      setDone(`${file.name} uploaded${answer.reused ? " (this project already had these exact bytes; reusing them)" : ""}.`);
      onUploaded(answer.datasetId);
    } else setError(answer.error ?? `Upload failed (${answer.status}).`);
  };
  const pct = progress?.total ? Math.round((progress.loaded / progress.total) * 100) : 0;
  return (
    <div className="flex flex-col gap-2">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        id={id}
        type="file"
        accept=".jsonl,.json,application/jsonl,application/x-ndjson"
        className="max-w-full text-sm file:mr-3 file:min-h-10 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3"
        disabled={Boolean(progress)}
        onChange={(e) => {
          const f = e.target.files?.[0];
          if (f) void upload(f);
        }}
      />
      {progress && (
        <div className="flex flex-col gap-1">
          <div role="progressbar" aria-label={`${label}: upload progress`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct} className="h-2 w-full rounded bg-slate-200">
            <div className="h-2 rounded bg-blue-700" style={{ width: `${pct}%` }} />
          </div>
          <p className="text-sm text-slate-700">
            Uploading… {formatBytes(progress.loaded)} of {formatBytes(progress.total)} ({pct}%)
          </p>
          <button type="button" className="self-start text-sm text-blue-800 underline" onClick={() => abort.current?.()}>
            Stop the upload
          </button>
        </div>
      )}
      {done && (
        <p role="status" className="text-sm text-green-800">
          {done}
        </p>
      )}
      {error && <ErrorMessage>{error}</ErrorMessage>}
    </div>
  );
}
