"use client";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { EmptyState } from "@/components/ui/status-message";
import { QueryState } from "@/components/ui/query-state";
import { ProjectCreateForm } from "./project-create-form";
import { ProjectRow } from "./project-row";

export function ProjectsPage() {
  const trpc = useTRPC();
  const [includeArchived, setIncludeArchived] = useState(false);
  const projects = useQuery(trpc.projects.list.queryOptions({ includeArchived }));

  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-semibold">Projects</h1>
        <p className="mt-1 text-sm text-slate-700">A project holds your datasets, experiments and models.</p>
      </div>
      <ProjectCreateForm />
      <div className="flex items-center gap-2">
        <input
          id="show-archived"
          type="checkbox"
          className="h-5 w-5"
          checked={includeArchived}
          onChange={(e) => setIncludeArchived(e.target.checked)}
        />
        <label htmlFor="show-archived" className="text-sm text-slate-800">
          Show archived projects
        </label>
      </div>
      <QueryState query={projects} loading="Loading projects…" failure="Could not load projects" />
      {projects.data && projects.data.length === 0 && (
        <EmptyState title={includeArchived ? "No projects yet" : "No active projects"}>
          Create a project above to start: name it after the question you want a model to answer.
        </EmptyState>
      )}
      {projects.data && projects.data.length > 0 && (
        <ul className="flex flex-col gap-3" aria-label="Projects">
          {projects.data.map((p) => (
            <ProjectRow key={`${p.id}:${p.revision}`} project={p} />
          ))}
        </ul>
      )}
    </div>
  );
}
