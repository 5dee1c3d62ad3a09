"use client";
import { useRef, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { ErrorMessage } from "@/components/ui/status-message";
import type { HoldoutView } from "@/server/holdouts/holdouts.schema";
import { postFile, type PostedFile } from "./upload-xhr";

/** The route's answer: the holdout's view when it was reserved, an error otherwise. */
type Reserved = PostedFile & Partial<Pick<HoldoutView, "name" | "rows" | "reused" | "kind">>;

/** Reserve a file as a holdout (POST /api/holdouts/upload): its rows are kept out of every later training of the project. */
export function ReserveHoldout({ projectId, onReserved }: { projectId: string; onReserved: (words: string) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState("");
  const [sent, setSent] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!file) return;
    setError(null);
    setSent(0);
    const q = new URLSearchParams({ projectId, fileName: file.name, ...(name.trim() ? { name: name.trim() } : {}) });
    const res = await postFile<Reserved>(`/api/holdouts/upload?${q}`, file, (loaded, total) => setSent(total > 0 ? Math.round((loaded / total) * 100) : 0)).promise;
    setSent(null);
    if (!res.ok) {
      setError(res.error ?? "The holdout was not reserved.");
      return;
    }
    setFile(null);
    setName("");
    if (input.current) input.current.value = "";
    onReserved(res.reused ? `“${res.name}” was already reserved with these bytes.` : res.kind === "examples" ? `Reserved “${res.name}”: ${res.rows} examples whose prompts are kept out of every fine-tune started from now on.` : `Reserved “${res.name}”: ${res.rows} rows kept out of every training started from now on.`);
  };

  return (
    <form onSubmit={(e) => void submit(e)} className="flex flex-col gap-3" aria-labelledby="reserve-heading">
      <h4 id="reserve-heading" className="text-sm font-semibold">
        Reserve a holdout
      </h4>
      <label htmlFor="holdout-file" className="text-sm font-medium">
        File of rows to keep out (CSV, TSV or Parquet, the columns of the project’s data; or JSONL examples, whose prompts fine-tunes keep out)
      </label>
      <input id="holdout-file" ref={input} type="file" className="text-sm" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
      <label htmlFor="holdout-name" className="text-sm font-medium">
        Name (optional; default: the file’s name)
      </label>
      <input id="holdout-name" value={name} onChange={(e) => setName(e.target.value)} maxLength={200} className="min-h-10 rounded-md border border-slate-400 bg-white px-2" />
      <Button type="submit" className="self-start" disabled={!file || sent !== null}>
        {sent !== null ? `Reserving… ${sent}%` : "Reserve as holdout"}
      </Button>
      {error && <ErrorMessage>Not reserved: {error}</ErrorMessage>}
    </form>
  );
}
