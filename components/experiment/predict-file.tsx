"use client";
/** Upload a CSV of new rows; the answer is a CSV of those rows with predictions, offered as a download. */
import { useEffect, useState } from "react";
import { ErrorMessage } from "@/components/ui/status-message";

export function PredictFile({ experimentId }: { experimentId: string }) {
  const [state, setState] = useState<{ busy: boolean; error: string | null; url: string | null; name: string | null; rows: string | null }>({ busy: false, error: null, url: null, name: null, rows: null });
  useEffect(() => () => void (state.url && URL.revokeObjectURL(state.url)), [state.url]);
  const send = async (file: File) => {
    setState({ busy: true, error: null, url: null, name: null, rows: null });
    try {
      const res = await fetch(`/api/experiments/${encodeURIComponent(experimentId)}/predict?fileName=${encodeURIComponent(file.name)}`, { method: "POST", body: file });
      if (!res.ok) {
        const body = (await res.json().catch(() => ({}))) as { error?: string };
        setState({ busy: false, error: body.error ?? `The server answered ${res.status}.`, url: null, name: null, rows: null });
        return;
      }
      const blob = await res.blob();
      setState({ busy: false, error: null, url: URL.createObjectURL(blob), name: file.name.replace(/\.csv$/i, "") + "-predictions.csv", rows: res.headers.get("x-prediction-rows") });
    } catch (err) {
      setState({ busy: false, error: `The request failed: ${(err as Error).message}`, url: null, name: null, rows: null });
    }
  };
  return (
    <div className="flex flex-col gap-2">
      <label htmlFor="predict-file" className="text-sm font-medium">
        CSV file of new rows (comma-separated, with the training columns as header; up to 50 MiB)
      </label>
      <input
        id="predict-file"
        type="file"
        accept=".csv,text/csv"
        disabled={state.busy}
        className="max-w-full text-sm file:mr-3 file:min-h-10 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3"
        onChange={(e) => {
          const f = e.target.files?.[0];
          if (f) void send(f);
          e.target.value = "";
        }}
      />
      {state.busy && <p role="status" className="text-sm text-slate-700">Predicting… (the model loads in a fresh process)</p>}
      {state.error && <ErrorMessage>{state.error}</ErrorMessage>}
      {state.url && (
        <p role="status" className="text-sm">
          {state.rows} rows predicted.{" "}
          <a href={state.url} download={state.name ?? "predictions.csv"} className="font-medium text-blue-800 underline">
            Download {state.name}
          </a>
        </p>
      )}
    </div>
  );
}
