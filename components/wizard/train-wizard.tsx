"use client";
/**
 * "Train a prediction model": six steps, saved as a per-project draft as the user goes
 * (inputs and choices only), so leaving and coming back restores them.
 */
import { useQuery } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { ErrorMessage, Loading } from "@/components/ui/status-message";
import { errorText } from "@/components/ui/error-text";
import { chooseComputer } from "./choose-computer";
import { applyRecommendedActions } from "@/contracts/vocabulary";
import { StepBudget } from "./step-budget";
import { StepComputer } from "./step-computer";
import { BackNext, useStepHeadingFocus, WizardSteps } from "./wizard-steps";
import { StepData } from "./step-data";
import { StepIssues } from "./step-issues";
import { featureOptionColumns } from "@/contracts/searches/tabular-space";
import { StepReview } from "./step-review";
import { StepTarget } from "./step-target";
import { useTargetReadiness } from "@/components/data/use-target-readiness";
import { useChecks } from "./use-checks";
import { useWizardDraft } from "./use-wizard-draft";

export const STEP_TITLES = ["Training computer", "Data", "Column to predict", "Data issues", "Effort and limits", "Review and start"];

export function TrainWizard({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const search = useSearchParams();
  const w = useWizardDraft(projectId, search.get("dataset"));
  const targets = useQuery(trpc.targets.list.queryOptions());
  const project = useQuery(trpc.projects.get.queryOptions({ id: projectId }));
  const draft = w.data;
  const dataset = useQuery({ ...trpc.datasets.get.queryOptions({ id: draft?.datasetId ?? "" }), enabled: Boolean(draft?.datasetId) });
  const checks = useChecks(draft?.datasetId ?? null, draft?.target ?? null);
  const readiness = useTargetReadiness(draft?.datasetId ?? null, draft?.target ?? null, draft?.task ?? null);
  const heading = useStepHeadingFocus(draft?.step);

  if (w.loading) return <Loading label="Restoring your choices…" />;
  if (w.loadError) return <ErrorMessage>Could not load the wizard draft: {errorText(w.loadError)}</ErrorMessage>;
  if (!draft) return <Loading label="Restoring your choices…" />;

  const computer = chooseComputer(targets.data ?? [], draft.targetId, project.data?.defaultTargetId ?? null);
  const applied = applyRecommendedActions(checks.result?.target === draft.target ? checks.result.issues : [], draft.target ?? "", { decided: draft.decided });
  // Flagged columns still used as features: an improve search may try leaving each out.
  const featureOptions = featureOptionColumns(checks.result?.target === draft.target ? checks.result.issues : [], draft.target ?? "", applied.excludeColumns);
  const d = dataset.data;
  const dataWhere = d
    ? `in the managed store of ${computer?.name ?? "This computer"} (snapshot ${d.snapshotSha256.slice(0, 12)}…, ${d.sourceKind === "upload" ? `uploaded as ${d.sourceName}` : `copied from ${d.sourceName}`})`
    : "nowhere yet";
  // Step 3 goes on only when the target can train with every column kept (the data issues of
  // step 4 may leave some out, and the review checks again with those choices).
  // Readiness that cannot be read holds nothing back here: the review asks again, and Start is refused there.
  const targetCanTrain = Boolean(readiness.error) || (readiness.ready !== null && readiness.refusals.length === 0);
  const canNext = [
    Boolean(computer),
    Boolean(d && d.status === "ready"),
    Boolean(draft.target && draft.task && draft.metric) && targetCanTrain,
    Boolean(checks.result),
    true,
    false,
  ][draft.step];
  const go = (step: number) => w.update({ step });

  return (
    <section aria-labelledby="wizard-title" className="flex flex-col gap-4">
      <h2 id="wizard-title" className="text-lg font-semibold">
        Train a prediction model
      </h2>
      <WizardSteps titles={STEP_TITLES} step={draft.step} go={go} />
      <div className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-4">
        <h3 id="wizard-heading" ref={heading} tabIndex={-1} className="text-base font-semibold outline-none">
          Step {draft.step + 1} of {STEP_TITLES.length}: {STEP_TITLES[draft.step]}
        </h3>
        {draft.step === 0 && <StepComputer projectId={projectId} targetId={draft.targetId} onChange={(targetId) => w.update({ targetId })} />}
        {draft.step === 1 && (
          <StepData
            projectId={projectId}
            datasetId={draft.datasetId}
            onChange={(datasetId) => datasetId !== draft.datasetId && w.update({ datasetId, target: null, task: null, metric: null, positiveClass: null, decided: {} })}
          />
        )}
        {draft.step === 2 && <StepTarget draft={draft} update={w.update} />}
        {draft.step === 3 && <StepIssues draft={draft} update={w.update} />}
        {draft.step === 4 && <StepBudget draft={draft} update={w.update} computer={computer?.name ?? "This computer"} dataWhere={dataWhere} />}
        {draft.step === 5 && (
          <StepReview
            projectId={projectId}
            featureOptions={featureOptions}
            draft={draft}
            applied={applied}
            computer={computer?.name ?? "This computer"}
            computerId={project.isPending ? null : (computer?.id ?? null)}
            dataName={d ? `${d.name}${d.rowCount !== null ? ` (${d.rowCount} rows)` : ""}` : "—"}
            onStarted={w.finish}
          />
        )}
        <BackNext step={draft.step} steps={STEP_TITLES.length} canNext={Boolean(canNext)} go={go} />
      </div>
      <div aria-live="polite" className="text-sm text-slate-600">
        {(w.saveState === "saving" || w.saveState === "pending") && "Saving your choices…"}
        {w.saveState === "saved" && "Choices saved for this project."}
      </div>
      {w.saveState === "failed" && (
        <div className="flex flex-col gap-2">
          <ErrorMessage>Your choices could not be saved: {w.saveError}</ErrorMessage>
          <Button variant="secondary" className="self-start" onClick={w.retrySave}>
            Retry saving
          </Button>
        </div>
      )}
    </section>
  );
}
