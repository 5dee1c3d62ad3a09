"use client";
/**
 * Upload with progress: XMLHttpRequest (fetch has no upload progress) posting the raw
 * file to /api/datasets/upload, which streams it into the store and answers the dataset.
 */
import { useRef, useState } from "react";
import { ErrorMessage } from "@/components/ui/status-message";
import { formatBytes } from "@/contracts/vocabulary";

const TABLE_FILES = { id: "wizard-upload", label: "Upload a file (CSV, TSV, gzip or Parquet)", accept: ".csv,.tsv,.txt,.gz,.parquet,text/csv" };

/** Defaults to a table file; the fine-tuning wizard passes its own id, label and accepted types (JSONL). */
export function UploadFile({
  projectId,
  onUploaded,
  id = TABLE_FILES.id,
  label = TABLE_FILES.label,
  accept = TABLE_FILES.accept,
}: {
  projectId: string;
  onUploaded: (datasetId: string) => void;
  id?: string;
  label?: string;
  accept?: string;
}) {
  const [progress, setProgress] = useState<{ loaded: number; total: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const xhr = useRef<XMLHttpRequest | null>(null);

  const upload = (file: File) => {
    setError(null);
    setDone(null);
    setProgress({ loaded: 0, total: file.size });
    const req = new XMLHttpRequest();
    xhr.current = req;
    const q = new URLSearchParams({ projectId, fileName: file.name, encoding: "utf-8" });
    req.open("POST", `/api/datasets/upload?${q}`);
    req.upload.onprogress = (e) => setProgress({ loaded: e.loaded, total: e.lengthComputable ? e.total : file.size });
    req.onload = () => {
      xhr.current = null;
      let body: { datasetId?: string; error?: string; reused?: boolean } = {};
      try {
        body = JSON.parse(req.responseText);
      } catch {
        body = { error: `The server answered ${req.status} without a readable message.` };
      }
      setProgress(null);
      if (req.status >= 200 && req.status < 300 && body.datasetId) {
        setDone(`${file.name} uploaded${body.reused ? " (this project already had these exact bytes; reusing them)" : ""}.`);
        onUploaded(body.datasetId);
      } else setError(body.error ?? `Upload failed (${req.status}).`);
    };
    req.onerror = () => {
      xhr.current = null;
      setProgress(null);
      setError("The upload was interrupted (connection lost). Nothing was stored; try again.");
    };
    req.send(file);
  };

  const pct = progress && progress.total ? Math.round((progress.loaded / progress.total) * 100) : 0;
  return (
    <div className="flex flex-col gap-2">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        id={id}
        type="file"
        accept={accept}
        className="max-w-full text-sm file:mr-3 file:min-h-10 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3"
        disabled={Boolean(progress)}
        onChange={(e) => {
          const f = e.target.files?.[0];
          if (f) upload(f);
        }}
      />
      {progress && (
        <div className="flex flex-col gap-1">
          <div role="progressbar" aria-label="Upload progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct} className="h-2 w-full rounded bg-slate-200">
            <div className="h-2 rounded bg-blue-700" style={{ width: `${pct}%` }} />
          </div>
          <p className="text-sm text-slate-700">
            Uploading… {formatBytes(progress.loaded)} of {formatBytes(progress.total)} ({pct}%)
          </p>
          <button type="button" className="self-start text-sm text-blue-800 underline" onClick={() => xhr.current?.abort()}>
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
