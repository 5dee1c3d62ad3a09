"use client";
import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { errorText } from "@/components/ui/error-text";
import { ErrorMessage } from "@/components/ui/status-message";

/** Register a file already on the training computer, inside a folder the owner allowed. */
export function PathForm({ projectId, onRegistered }: { projectId: string; onRegistered: (datasetId: string) => void }) {
  const trpc = useTRPC();
  const [path, setPath] = useState("");
  const register = useMutation(trpc.datasets.registerPath.mutationOptions({ onSuccess: (r) => {
    setPath("");
    onRegistered(r.datasetId);
  } }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    register.mutate({ projectId, path });
  };
  return (
    <form onSubmit={submit} className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4" aria-labelledby="path-heading">
      <h3 id="path-heading" className="text-base font-semibold">
        Use a file on This computer
      </h3>
      <p className="text-sm text-slate-700">
        Only files inside the folders allowed under <Link className="text-blue-800 underline" href="/settings">Settings → Data</Link> can be used.
      </p>
      <label htmlFor="dataset-path" className="text-sm font-medium">
        Path of the file
      </label>
      <input
        id="dataset-path"
        value={path}
        onChange={(e) => setPath(e.target.value)}
        placeholder="/data/sales/2024.csv"
        className="min-h-10 rounded-md border border-slate-400 px-3 py-2 text-sm"
      />
      <Button type="submit" className="self-start" disabled={!path.trim() || register.isPending}>
        {register.isPending ? "Copying…" : "Register file"}
      </Button>
      {register.error && <ErrorMessage>{errorText(register.error)}</ErrorMessage>}
    </form>
  );
}
