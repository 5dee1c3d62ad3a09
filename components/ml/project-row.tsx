"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { ErrorMessage } from "@/components/ui/status-message";
import { errorText } from "@/components/ui/error-text";
import type { ProjectView } from "@/server/projects/projects.schema";
import { ProjectStatus } from "./project-status";

export function ProjectRow({ project }: { project: ProjectView }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(project.name);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.projects.list.queryKey() });
  const rename = useMutation(
    trpc.projects.rename.mutationOptions({ onSuccess: () => (setEditing(false), void refresh()) }),
  );
  const archive = useMutation(trpc.projects.archive.mutationOptions({ onSuccess: () => void refresh() }));
  const restore = useMutation(trpc.projects.restore.mutationOptions({ onSuccess: () => void refresh() }));
  const error = rename.error ?? archive.error ?? restore.error;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    rename.mutate({ id: project.id, name, revision: project.revision });
  };

  return (
    <li className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-4" data-testid="project-row">
      {editing ? (
        <form onSubmit={submit} className="flex flex-col gap-2 sm:flex-row sm:items-end">
          <div className="flex flex-1 flex-col gap-1">
            <label htmlFor={`rename-${project.id}`} className="text-sm font-medium text-slate-800">
              New name for {project.name}
            </label>
            <input
              id={`rename-${project.id}`}
              value={name}
              onChange={(e) => setName(e.target.value)}
              className="min-h-10 rounded-md border border-slate-400 px-3 py-2 text-sm"
              autoFocus
            />
          </div>
          <div className="flex gap-2">
            <Button type="submit" disabled={rename.isPending}>
              Save
            </Button>
            <Button variant="secondary" onClick={() => (setEditing(false), setName(project.name), rename.reset())}>
              Cancel
            </Button>
          </div>
        </form>
      ) : (
        <div className="flex flex-wrap items-center justify-between gap-2">
          <div className="min-w-0">
            {project.archived ? (
              <span className="break-words font-medium text-slate-600">{project.name}</span>
            ) : (
              <Link href={`/projects/${project.id}/ml`} className="break-words font-medium text-blue-800 underline-offset-4 hover:underline">
                {project.name}
              </Link>
            )}
            {project.archived && <span className="ml-2 rounded bg-slate-200 px-2 py-0.5 text-xs text-slate-800">Archived</span>}
          </div>
          <div className="flex flex-wrap gap-2">
            {project.archived ? (
              <Button variant="secondary" onClick={() => restore.mutate({ id: project.id, revision: project.revision })}>
                Restore<span className="sr-only"> {project.name}</span>
              </Button>
            ) : (
              <>
                <Button variant="secondary" onClick={() => setEditing(true)}>
                  Rename<span className="sr-only"> {project.name}</span>
                </Button>
                <Button variant="secondary" onClick={() => archive.mutate({ id: project.id, revision: project.revision })}>
                  Archive<span className="sr-only"> {project.name}</span>
                </Button>
              </>
            )}
          </div>
        </div>
      )}
      {!project.archived && !editing && <ProjectStatus projectId={project.id} />}
      {error && <ErrorMessage>{errorText(error)}</ErrorMessage>}
    </li>
  );
}
