"use client";
/**
 * What a project's row answers on the first screen, a phone's included: each model's
 * version in use with its Roll back one tap away (the registry's own confirmation sheet
 * is the second tap), and how the last run went.
 */
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { experimentStatusLabel } from "@/contracts/vocabulary/states";
import { useTRPC } from "@/components/providers/trpc";
import { RollbackSheet } from "@/components/registry/rollback-sheet";
import type { ModelSummary } from "@/components/registry/registry-types";
import { Button } from "@/components/ui/button";

export function ProjectStatus({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const models = useQuery(trpc.models.list.queryOptions({ projectId }));
  const runs = useQuery(trpc.experiments.list.queryOptions({ projectId }));
  const [rollback, setRollback] = useState<ModelSummary | null>(null);
  const inUse = (models.data ?? []).filter((m) => m.selected);
  const last = runs.data?.[0];
  if (!inUse.length && !last) return null;
  return (
    <div className="flex flex-col gap-2 text-sm text-slate-800">
      {inUse.length > 0 && (
        <ul className="flex flex-col gap-2" data-testid="project-models">
          {inUse.map((m) => (
            <li key={m.id} className="flex flex-wrap items-center gap-x-3 gap-y-1">
              <span className="break-words">
                {m.name}: <strong>version {m.selected!.number}</strong> in use
              </span>
              {m.rollbackTo !== null && (
                <Button variant="secondary" onClick={() => setRollback(m)}>
                  Roll back<span className="sr-only"> {m.name}</span> to version {m.rollbackTo}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {last && (
        <p data-testid="project-last-run" className="break-words">
          Last run:{" "}
          <Link className="text-blue-800 underline" href={`/projects/${projectId}/ml/experiments/${last.id}`}>
            {last.name}
          </Link>{" "}
          — {experimentStatusLabel(last.status)}
        </p>
      )}
      {rollback?.selected && rollback.rollbackTo !== null && (
        <RollbackSheet modelId={rollback.id} from={rollback.selected.number} to={rollback.rollbackTo} revision={rollback.revision} onClose={() => setRollback(null)} />
      )}
    </div>
  );
}
