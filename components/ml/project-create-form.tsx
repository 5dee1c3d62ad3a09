"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { ErrorMessage } from "@/components/ui/status-message";
import { errorText } from "@/components/ui/error-text";

/** Creates a project and opens it: the next thing a new project needs is its data. */
export function ProjectCreateForm() {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const create = useMutation(
    trpc.projects.create.mutationOptions({
      onSuccess: (p) => {
        void queryClient.invalidateQueries({ queryKey: trpc.projects.list.queryKey() });
        router.push(`/projects/${p.id}/ml`);
      },
    }),
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate({ name });
  };
  return (
    <form onSubmit={submit} className="flex flex-col gap-2 sm:flex-row sm:items-end" aria-label="Create a project">
      <div className="flex flex-1 flex-col gap-1">
        <label htmlFor="new-project-name" className="text-sm font-medium text-slate-800">
          New project name
        </label>
        <input
          id="new-project-name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          maxLength={300}
          className="min-h-10 rounded-md border border-slate-400 px-3 py-2 text-sm"
          placeholder="e.g. Churn prediction"
        />
      </div>
      <Button type="submit" disabled={create.isPending || create.isSuccess}>
        {create.isPending ? "Creating…" : create.isSuccess ? "Opening…" : "Create project"}
      </Button>
      {create.error && (
        <div className="sm:basis-full">
          <ErrorMessage>{errorText(create.error)}</ErrorMessage>
        </div>
      )}
    </form>
  );
}
