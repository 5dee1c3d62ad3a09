/**
 * "Improve within a budget" from the wizard's draft: the searches.start input (pure;
 * unit-tested). Quick mode still starts one experiment (experiments.start).
 */
import { SEARCH_LIMITS, trialMinutesFor } from "@/contracts/searches/search-spec";
import type { AppliedActions, Metric, Task } from "@/contracts/vocabulary";
import type { TWizardDraftData } from "@/server/drafts/drafts.schema";
import type { TStartSearchInput } from "@/server/searches/searches.schema";

export function searchStartInput(
  draft: TWizardDraftData,
  applied: AppliedActions,
  ids: { opId: string; projectId: string; computerId: string | null },
  featureOptions: string[] = [],
): TStartSearchInput {
  const maxTrials = Math.min(SEARCH_LIMITS.maxTrials, draft.maxTrials);
  const parallelTrials = Math.min(maxTrials, draft.parallelTrials);
  return {
    opId: ids.opId,
    projectId: ids.projectId,
    datasetId: draft.datasetId ?? "",
    ...(ids.computerId ? { targetId: ids.computerId } : {}),
    target: draft.target ?? "",
    task: (draft.task ?? "multiclass") as Task,
    metric: (draft.metric ?? "accuracy") as Metric,
    positiveClass: draft.task === "binary" ? draft.positiveClass : null,
    excludeColumns: applied.excludeColumns,
    featureOptions,
    split: applied.split,
    budget: { maxTrials, maxWallMinutes: draft.maxMinutes, perTrialMinutes: trialMinutesFor(draft.maxMinutes, maxTrials, parallelTrials), parallelTrials },
    ...(draft.minUsefulGain !== null ? { minUsefulGain: draft.minUsefulGain } : {}),
    ...(draft.patience !== null ? { patience: draft.patience } : {}),
  };
}
