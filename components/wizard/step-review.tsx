"use client";
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useMemo } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { ErrorMessage } from "@/components/ui/status-message";
import { FactList } from "@/components/ui/fact-list";
import { errorText } from "@/components/ui/error-text";
import type { TWizardDraftData } from "@/server/drafts/drafts.schema";
import { ReadinessNotes } from "@/components/data/readiness-notes";
import { useTargetReadiness } from "@/components/data/use-target-readiness";
import { metricLabel, TASK_LABELS, type AppliedActions } from "@/contracts/vocabulary";
import { searchStartInput } from "./search-start";

function newOpId(): string {
  return typeof crypto !== "undefined" && "randomUUID" in crypto ? crypto.randomUUID() : `op-${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

type Props = {
  projectId: string;
  draft: TWizardDraftData;
  applied: AppliedActions;
  /** Flagged columns an improve search may try leaving out. */
  featureOptions: string[];
  computer: string;
  computerId: string | null;
  dataName: string;
  onStarted: () => void;
};

/**
 * Step 6: everything at a glance, then Start. The operation id is made once per reviewed
 * intent: a double click or a retried request carries the same id, so the server starts
 * one experiment; changing a choice makes a new intent and a new id. "Improve within a
 * budget" starts a search (searches.start) and opens its page; quick mode one experiment.
 */
export function StepReview({ projectId, draft, applied, featureOptions, computer, computerId, dataName, onStarted }: Props) {
  const trpc = useTRPC();
  const router = useRouter();
  const settings = {
    target: draft.target ?? "",
    task: draft.task ?? "multiclass",
    metric: (draft.metric ?? "accuracy") as "accuracy",
    positiveClass: draft.task === "binary" ? draft.positiveClass : null,
    excludeColumns: applied.excludeColumns,
    split: applied.split,
    mode: draft.mode,
    maxMinutes: draft.maxMinutes,
    maxTrials: draft.maxTrials,
    appliedActions: applied.appliedActions,
  };
  const improve = draft.mode === "improve";
  const intent = JSON.stringify({ projectId, datasetId: draft.datasetId, computerId, settings, minUsefulGain: draft.minUsefulGain, patience: draft.patience, parallelTrials: draft.parallelTrials, featureOptions });
  const opId = useMemo(() => (intent ? newOpId() : ""), [intent]);
  const start = useMutation(
    trpc.experiments.start.mutationOptions({
      onSuccess: (exp) => {
        onStarted();
        router.push(`/projects/${projectId}/ml/experiments/${exp.id}`);
      },
    }),
  );
  const startSearch = useMutation(
    trpc.searches.start.mutationOptions({
      onSuccess: (s) => {
        onStarted();
        router.push(`/projects/${projectId}/ml/searches/${s.id}`);
      },
    }),
  );
  const starting = improve ? startSearch : start;
  const go = () =>
    improve
      ? startSearch.mutate(searchStartInput(draft, applied, { opId, projectId, computerId }, featureOptions))
      : start.mutate({ opId, projectId, datasetId: draft.datasetId!, targetId: computerId ?? undefined, settings });
  // The server's target rules: Start stays disabled, with the reasons, for a setup start would refuse.
  const readiness = useTargetReadiness(draft.datasetId, draft.target, draft.task, applied.excludeColumns, applied.split);
  const ready = Boolean(draft.datasetId && draft.target && draft.task && draft.metric) && readiness.ready === true;
  const rows: [string, string][] = [
    ["Computer", computer],
    ["Data", dataName],
    ["Predict", draft.target ?? "—"],
    ["Task", draft.task ? TASK_LABELS[draft.task] : "—"],
    ["Metric", draft.metric ? metricLabel(draft.metric) : "—"],
    ["Columns left out", applied.excludeColumns.join(", ") || "none"],
    ["Split", applied.split.strategy === "random" ? "random (stratified)" : `${applied.split.strategy} on ${applied.split.column}`],
    ["Effort", draft.mode === "quick" ? `Quick baseline, at most ${draft.maxMinutes} min` : `Improve: a search of at most ${draft.maxTrials} trials${draft.parallelTrials > 1 ? ` (${Math.min(draft.parallelTrials, draft.maxTrials)} at once)` : ""} and ${draft.maxMinutes} min`],
    ...(improve
      ? ([
          ["Minimum useful gain", draft.minUsefulGain !== null ? String(draft.minUsefulGain) : "none (any gain counts)"],
          ["Patience", draft.patience !== null ? `${draft.patience} trials without a useful gain` : "none"],
          ["Columns trials may try without", featureOptions.join(", ") || "none"],
        ] as [string, string][])
      : []),
  ];
  return (
    <div className="flex flex-col gap-4">
      <FactList rows={rows} label="Review" className="rounded-md border border-slate-200 bg-white p-3" />
      {!(draft.datasetId && draft.target && draft.task && draft.metric) && <p className="text-sm text-amber-900">Choose the data and the column to predict before starting.</p>}
      <ReadinessNotes refusals={readiness.refusals} warnings={readiness.warnings} error={readiness.error} />
      <Button
        className="self-start"
        disabled={!ready || starting.isPending || starting.isSuccess}
        onClick={go}
      >
        {starting.isPending || starting.isSuccess ? "Starting…" : improve ? "Start the search" : "Start training"}
      </Button>
      {starting.error && (
        <div className="flex flex-col gap-2">
          <ErrorMessage>Could not start: {errorText(starting.error)}</ErrorMessage>
          <Button variant="secondary" className="self-start" onClick={go}>
            Try again
          </Button>
        </div>
      )}
    </div>
  );
}
