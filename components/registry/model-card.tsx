"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { ErrorMessage, Loading } from "@/components/ui/status-message";
import { errorText } from "@/components/ui/error-text";
import { formatMetric } from "@/components/experiment/format";
import { CompareVersions } from "./compare-versions";
import { HoldoutCompare } from "./holdout-compare";
import { PolicyPanel } from "./policy-panel";
import { DeploySheet } from "./deploy-sheet";
import { PromoteSheet } from "./promote-sheet";
import { RemoveSheet } from "./remove-sheet";
import { RollbackSheet } from "./rollback-sheet";
import type { ModelSummary } from "./registry-types";
import { Timeline } from "./timeline";
import { VersionsTable } from "./versions-table";

type Open = { kind: "promote"; version: number } | { kind: "deploy"; version: number } | { kind: "rollback"; to: number } | { kind: "remove"; versionId: string } | null;

/** One model: the version in use with its score and since when, its versions, its timeline, compare. */
export function ModelCard({ projectId, model }: { projectId: string; model: ModelSummary }) {
  const trpc = useTRPC();
  const show = useQuery(trpc.models.show.queryOptions({ modelId: model.id }));
  // The same query as the retention panel's: what removing a version frees.
  const retention = useQuery(trpc.models.retentionPreview.queryOptions({ projectId }));
  const [open, setOpen] = useState<Open>(null);
  // Read the holdouts when the section opens: one reserved from the CLI meanwhile is there.
  const [holdoutOpen, setHoldoutOpen] = useState(false);
  const sel = (show.data?.model ?? model).selected;
  const revision = show.data?.model.revision ?? model.revision;
  const history = show.data?.history ?? [];
  // The version selected before the current one: what "Roll back" returns to (rollback.ts).
  const previous = history.find((e) => e.alias === "selected")?.from?.number ?? null;
  const headingId = `model-${model.id}`;
  const toDeploy = open?.kind === "deploy" ? show.data?.versions.find((v) => v.number === open.version) : undefined;
  return (
    <section aria-labelledby={headingId} className="flex min-w-0 flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4" data-testid="model-card">
      <h3 id={headingId} className="break-words text-base font-semibold">
        {model.name}
      </h3>
      <p className="text-sm" data-testid="model-selected">
        {sel ? (
          <>
            In use: <strong>version {sel.number}</strong> · {sel.metricLabel} {formatMetric(sel.primaryValue)} · selected {new Date(sel.selectedAt).toLocaleString()} ·{" "}
            <Link className="text-blue-800 underline" href={`/projects/${projectId}/ml/experiments/${sel.experimentId}`}>
              its experiment
            </Link>
          </>
        ) : (
          "No version is in use yet: promote one."
        )}
      </p>
      {sel && previous !== null && (
        <Button variant="secondary" className="self-start" onClick={() => setOpen({ kind: "rollback", to: previous })}>
          Roll back to version {previous}
        </Button>
      )}
      {show.isPending && <Loading label="Loading versions…" />}
      {show.error && <ErrorMessage>Could not load the versions: {errorText(show.error)}</ErrorMessage>}
      {show.data && (
        <>
          <VersionsTable
            modelId={model.id}
            modelName={model.name}
            versions={show.data.versions}
            onPromote={(version) => setOpen({ kind: "promote", version })}
            onDeploy={(v) => setOpen({ kind: "deploy", version: v.number })}
            onRemove={(v) => setOpen({ kind: "remove", versionId: v.id })}
          />
          <details className="text-sm" open>
            <summary className="cursor-pointer font-medium">Promotion policy</summary>
            <div className="mt-2">
              <PolicyPanel projectId={projectId} modelId={model.id} />
            </div>
          </details>
          <details className="text-sm" open>
            <summary className="cursor-pointer font-medium">Selection history ({history.length})</summary>
            <div className="mt-2">
              <Timeline events={history} selected={sel?.number ?? null} onRollbackTo={(to) => setOpen({ kind: "rollback", to })} />
            </div>
          </details>
          {show.data.versions.length > 1 && (
            <details className="text-sm">
              <summary className="cursor-pointer font-medium">Compare two versions</summary>
              <div className="mt-2">
                <CompareVersions modelId={model.id} numbers={show.data.versions.map((v) => v.number)} />
              </div>
            </details>
          )}
          {show.data.versions.length > 1 && (
            <details className="text-sm" onToggle={(e) => setHoldoutOpen(e.currentTarget.open)}>
              <summary className="cursor-pointer font-medium">Compare on the holdout</summary>
              <div className="mt-2">{holdoutOpen && <HoldoutCompare projectId={projectId} modelId={model.id} numbers={show.data.versions.map((v) => v.number)} />}</div>
            </details>
          )}
        </>
      )}
      {open?.kind === "promote" && <PromoteSheet modelId={model.id} version={open.version} onClose={() => setOpen(null)} />}
      {toDeploy && show.data && (
        <DeploySheet
          projectId={projectId}
          modelId={model.id}
          modelName={model.name}
          version={toDeploy}
          versions={show.data.versions}
          onClose={() => setOpen(null)}
        />
      )}
      {open?.kind === "remove" && retention.data && (
        <RemoveSheet projectId={projectId} chosen={[open.versionId]} retention={retention.data} onClose={() => setOpen(null)} />
      )}
      {open?.kind === "rollback" && sel && (
        <RollbackSheet modelId={model.id} from={sel.number} to={open.to} revision={revision} onClose={() => setOpen(null)} />
      )}
    </section>
  );
}
