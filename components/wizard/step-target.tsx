"use client";
import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { SelectField, sameLabel } from "@/components/ui/select-field";
import { ErrorMessage, Loading } from "@/components/ui/status-message";
import { errorText } from "@/components/ui/error-text";
import type { TWizardDraftData } from "@/server/drafts/drafts.schema";
import { ReadinessNotes } from "@/components/data/readiness-notes";
import { useTargetReadiness } from "@/components/data/use-target-readiness";
import { applyRecommendedActions, metricLabel, metricsFor, TASK_LABELS } from "@/contracts/vocabulary";
import { useChecks } from "./use-checks";

type Props = { draft: TWizardDraftData; update: (p: Partial<TWizardDraftData>) => void };

/**
 * Step 3: the column to predict; the suggested task and metric with their reasons,
 * changeable. Columns that look like row IDs are listed apart, not among the targets to
 * pick; the server's target rules say here (and in step 6) when a choice cannot train.
 */
export function StepTarget({ draft, update }: Props) {
  const trpc = useTRPC();
  const dataset = useQuery({ ...trpc.datasets.get.queryOptions({ id: draft.datasetId ?? "" }), enabled: Boolean(draft.datasetId) });
  const checks = useChecks(draft.datasetId, draft.target);
  const r = checks.result;
  const options = useQuery({ ...trpc.experiments.targetOptions.queryOptions({ datasetId: draft.datasetId ?? "" }), enabled: Boolean(draft.datasetId) && dataset.data?.status === "ready" });
  const applied = applyRecommendedActions(r?.target === draft.target ? r.issues : [], draft.target ?? "", { decided: draft.decided });
  const readiness = useTargetReadiness(draft.datasetId, draft.target, draft.task, applied.excludeColumns, applied.split);
  useEffect(() => {
    // Adopt the suggestion the first time the checks answer for this target.
    if (r && r.target === draft.target && !draft.task) update({ task: r.task, metric: r.metric, positiveClass: r.positiveClass === null ? null : String(r.positiveClass) });
  }, [r, draft.target, draft.task, update]);
  if (!draft.datasetId) return <p className="text-sm text-slate-700">Choose the data first (step 2).</p>;
  if (dataset.isPending) return <Loading label="Loading the columns…" />;
  if (dataset.error) return <ErrorMessage>{errorText(dataset.error)}</ErrorMessage>;
  const columns = dataset.data.columns;
  if (dataset.data.status !== "ready") return <p role="status" className="text-sm text-slate-700">The file is still being read ({dataset.data.status}); its columns appear when it is ready.</p>;
  const classes = Object.keys(r?.classCounts ?? {});
  const idLike = new Map((options.data?.idLike ?? []).map((c) => [c.name, c.reason]));
  const offered = columns.filter((c) => !idLike.has(c.name));
  const apart = columns.filter((c) => idLike.has(c.name));
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-1">
        <label htmlFor="wizard-target" className="text-sm font-medium text-slate-800">
          Column to predict (target)
        </label>
        <select
          id="wizard-target"
          className="min-h-10 max-w-full rounded-md border border-slate-400 bg-white px-2"
          value={draft.target ?? ""}
          onChange={(e) => update({ target: e.target.value || null, task: null, metric: null, positiveClass: null, decided: {} })}
        >
          <option value="">Choose a column…</option>
          {offered.map((c) => (
            <option key={c.name} value={c.name}>
              {c.name} ({c.type === "id_like" ? "looks like an ID" : c.type})
            </option>
          ))}
          {apart.length > 0 && (
            <optgroup label="Look like row IDs (not something to predict)">
              {apart.map((c) => (
                <option key={c.name} value={c.name}>
                  {c.name} (looks like an ID)
                </option>
              ))}
            </optgroup>
          )}
        </select>
        {draft.target && idLike.has(draft.target) && <p className="text-sm text-amber-900">{idLike.get(draft.target)}: it looks like a row ID.</p>}
      </div>
      {draft.target && checks.pending && (
        <p role="status" className="text-sm text-slate-700">
          Checking the data for {draft.target}…{checks.view?.setup && " Setting up the data tools on This computer (first use)."}
        </p>
      )}
      {checks.error && (
        <div className="flex flex-col gap-2">
          <ErrorMessage>The data checks could not run: {errorText(checks.error)}</ErrorMessage>
          <Button variant="secondary" className="self-start" onClick={checks.retry}>
            Run the checks again
          </Button>
        </div>
      )}
      {checks.view?.status === "failed" && <ErrorMessage>The data checks failed: {checks.view.error?.message}</ErrorMessage>}
      {r && draft.task && r.target === draft.target && <ReadinessNotes refusals={readiness.refusals} warnings={readiness.warnings} error={readiness.error} />}
      {r && draft.task && (
        <div className="flex flex-col gap-3 rounded-md border border-slate-200 bg-white p-3">
          <p className="text-sm">
            <span className="font-medium">Suggested task: {TASK_LABELS[r.task]}.</span> {r.taskReason}
          </p>
          <p className="text-sm">
            <span className="font-medium">Suggested metric: {metricLabel(r.metric)}.</span> {r.metricReason}
          </p>
          <div className="grid gap-3 sm:grid-cols-3">
            <SelectField
              id="wizard-task"
              label="Task"
              value={draft.task}
              onChange={(task) => update({ task, metric: (metricsFor(task) as readonly string[]).includes(draft.metric ?? "") ? draft.metric : metricsFor(task)[0]! })}
              options={Object.entries(TASK_LABELS) as [NonNullable<TWizardDraftData["task"]>, string][]}
            />
            <SelectField id="wizard-metric" label="Metric" value={draft.metric ?? ""} onChange={(metric) => update({ metric })} options={metricsFor(draft.task).map((m) => [m, metricLabel(m)] as const)} />
            {draft.task === "binary" && classes.length > 0 && (
              <SelectField
                id="wizard-positive"
                label="Positive class"
                value={draft.positiveClass ?? ""}
                onChange={(c) => update({ positiveClass: c || null })}
                placeholder="The minority class"
                options={sameLabel(classes)}
              />
            )}
          </div>
        </div>
      )}
    </div>
  );
}
