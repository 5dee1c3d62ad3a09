/**
 * What a search shows (issue 17). `validationView` is everything a planner or an agent may
 * see: settings, validation scores, budget; never a test score. `searchView` adds the
 * final test result, for the owner's page and CLI only.
 */
import { ZProposer, type SearchSpec } from "@/contracts/searches/search-spec";
import { ZTrialParams } from "@/contracts/recipes/search";
import { parseStoredJson } from "@/server/db/stored-json";
import type { Db } from "@/server/db/client";
import { parseStoredResults } from "@/server/experiments/chain-results";
import { ZTrialResults } from "@/server/experiments/pipelines/tabular-trial";
import { BASELINE_RESULTS } from "@/server/experiments/pipelines/baseline-test";
import { ZPlacement } from "@/server/experiments/placement";
import { finalReserveSeconds, longestTrialSeconds, wallUsedSeconds } from "./search-budget";
import { bestTrial, ZSearchOutcome } from "./search-outcome";
import { specOf } from "./search-advance";
import { searchesRepository, type SearchRow, type TrialRow } from "./searches.repository";
import { z } from "zod";

export interface TrialView {
  id: string;
  number: number;
  status: string;
  proposer: z.infer<typeof ZProposer>;
  hypothesis: string | null;
  params: z.infer<typeof ZTrialParams>;
  /** Every reason a rejected proposal broke the search's limits. */
  rejection: string[];
  reservedSeconds: number;
  usedSeconds: number | null;
  validationValue: number | null;
  reason: string | null;
  createdAt: Date;
  endedAt: Date | null;
}

function trialView(t: TrialRow): TrialView {
  return {
    id: t.id,
    number: t.number,
    status: t.status,
    proposer: ZProposer.parse(JSON.parse(t.proposer)),
    hypothesis: t.hypothesis,
    params: ZTrialParams.parse(JSON.parse(t.params)),
    rejection: t.rejection ? z.array(z.string()).parse(JSON.parse(t.rejection)) : [],
    reservedSeconds: t.reservedSeconds,
    usedSeconds: t.usedSeconds,
    validationValue: t.validationValue,
    reason: t.reason,
    createdAt: t.createdAt,
    endedAt: t.endedAt,
  };
}

/** The baseline's validation score, once a trial has scored it (one shared job per search). */
export async function baselineValidationValue(db: Db, trials: TrialRow[]): Promise<number | null> {
  const scored = trials.find((t) => t.status === "succeeded" && t.experimentId);
  if (!scored) return null;
  const exp = await searchesRepository(db).experiment(scored.experimentId!);
  return parseStoredJson(ZTrialResults, exp?.results ?? null)?.baselineValidation.primaryValue ?? null;
}

export function validationView(s: SearchRow, trials: TrialRow[], baselineValidation: number | null, now = new Date()) {
  const spec: SearchSpec = specOf(s);
  const used = wallUsedSeconds(s, now);
  const best = bestTrial(spec, trials);
  const booked = trials.filter((t) => t.reservedAt !== null).length;
  return {
    id: s.id,
    projectId: s.projectId,
    name: s.name,
    status: s.status,
    reason: s.reason,
    revision: s.revision,
    datasetId: s.datasetId,
    targetId: s.targetId,
    /** How its computer was chosen, when it was started on "any" computer. */
    placement: parseStoredJson(ZPlacement, s.placement),
    spec,
    budget: {
      wallUsedSeconds: used,
      wallBudgetSeconds: spec.budget.maxWallMinutes * 60,
      finalReserveSeconds: finalReserveSeconds(spec, longestTrialSeconds(trials)),
      trialsBooked: booked,
      trialsLeft: Math.max(0, spec.budget.maxTrials - booked),
    },
    best: best ? { trialNumber: best.number, validationValue: best.validationValue! } : null,
    /** The baseline's score on validation (null until a trial has run): what a trial must beat by the minimum useful gain. */
    baselineValidationValue: baselineValidation,
    outcome: parseStoredJson(ZSearchOutcome, s.outcome),
    trials: trials.map(trialView),
    createdAt: s.createdAt,
    endedAt: s.endedAt,
  };
}
export type SearchValidationView = ReturnType<typeof validationView>;

/** The owner's view: the validation view plus the one test scoring of what was chosen. */
export async function searchView(db: Db, s: SearchRow, trials: TrialRow[]) {
  const base = validationView(s, trials, await baselineValidationValue(db, trials));
  const exp = s.finalExperimentId ? await searchesRepository(db).experiment(s.finalExperimentId) : null;
  const tabular = exp?.kind === "tabular" ? parseStoredResults(exp.results) : null;
  const baselineOnly = exp?.kind === "search_baseline" ? parseStoredJson(BASELINE_RESULTS, exp.results) : null;
  const final = exp
    ? {
        experimentId: exp.id,
        status: exp.status,
        reason: exp.reason,
        /** The chosen model's test receipt (null when the search kept the baseline). */
        candidate: tabular?.candidate ?? null,
        baseline: tabular?.baseline ?? baselineOnly?.baseline ?? null,
        exportSha256: exp.exportSha256,
      }
    : null;
  return { ...base, final };
}
export type SearchView = Awaited<ReturnType<typeof searchView>>;
