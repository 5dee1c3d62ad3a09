"use client";
/**
 * A file picker that sends the chosen file with a progress bar and a Stop button, and
 * says in words what the server answered. What is sent where, and what the answer means,
 * is the caller's `send`.
 */
import { useRef, useState } from "react";
import { ErrorMessage } from "@/components/ui/status-message";
import { formatBytes } from "@/contracts/vocabulary";

export type SendOutcome = { done: string } | { error: string };
export type SendFile = (file: File, onProgress: (loaded: number, total: number) => void) => { promise: Promise<SendOutcome>; abort: () => void };

export function FileUpload({ id, label, accept, send }: { id: string; label: string; accept: string; send: SendFile }) {
  const [progress, setProgress] = useState<{ loaded: number; total: number } | null>(null);
  const [outcome, setOutcome] = useState<SendOutcome | null>(null);
  const abort = useRef<(() => void) | null>(null);

  const upload = async (file: File) => {
    setOutcome(null);
    setProgress({ loaded: 0, total: file.size });
    const sending = send(file, (loaded, total) => setProgress({ loaded, total }));
    abort.current = sending.abort;
    const result = await sending.promise;
    abort.current = null;
    setProgress(null);
    setOutcome(result);
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
          if (f) void upload(f);
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
          <button type="button" className="self-start text-sm text-blue-800 underline" onClick={() => abort.current?.()}>
            Stop the upload
          </button>
        </div>
      )}
      {outcome && "done" in outcome && (
        <p role="status" className="text-sm text-green-800">
          {outcome.done}
        </p>
      )}
      {outcome && "error" in outcome && <ErrorMessage>{outcome.error}</ErrorMessage>}
    </div>
  );
}
