"use client";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc";
import { ErrorMessage } from "@/components/ui/status-message";
import { errorText } from "@/components/ui/error-text";
import { MlTabs } from "./ml-tabs";

export function ProjectHeader({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const project = useQuery(trpc.projects.get.queryOptions({ id: projectId }));
  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm text-slate-600">Project</p>
      <h1 className="-mt-3 break-words text-2xl font-semibold">
        {project.data?.name ?? (project.isPending ? "…" : "Unknown project")}
        {project.data?.archived && <span className="ml-2 align-middle text-sm font-normal text-slate-600">(archived)</span>}
      </h1>
      {project.error && <ErrorMessage>{errorText(project.error)}</ErrorMessage>}
      <MlTabs projectId={projectId} />
    </div>
  );
}
