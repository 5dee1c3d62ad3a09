/**
 * What an agent sees of a search: searches.validation's answer (already without the final
 * test scoring) mapped field by field onto the strict shapes of search-shapes.ts, and the
 * search space in words for propose_experiment's description. Pure, so the allow-list is
 * tested without a server.
 */
import type { inferRouterOutputs } from "@trpc/server";
import type { SearchSpace, SpaceParam } from "@/contracts/recipes/search";
import { SEARCH_LIMITS } from "@/contracts/searches/search-spec";
import type { AppRouter } from "@/server/api/root";
import { ZSearchDetail, ZSearchSummary, ZValidationResultsOutput, type SearchDetail, type SearchSummary, type SpaceParamView } from "./search-shapes";
import type { z } from "zod";

export type SearchValidation = inferRouterOutputs<AppRouter>["searches"]["validation"];

const iso = (d: Date | string) => (typeof d === "string" ? d : d.toISOString());
const isoOrNull = (d: Date | string | null) => (d === null ? null : iso(d));

function outcomeView(o: SearchValidation["outcome"]): SearchSummary["outcome"] {
  if (!o) return null;
  if (o.kind === "candidate") {
    return { kind: o.kind, trialNumber: o.trialNumber, validationValue: o.validationValue, baselineValidationValue: o.baselineValidationValue, gain: o.gain, reason: null, ended: o.ended };
  }
  return { kind: o.kind, trialNumber: o.bestTrialNumber, validationValue: o.bestValidationValue, baselineValidationValue: o.baselineValidationValue, gain: null, reason: o.reason, ended: o.ended };
}

export function searchSummary(s: SearchValidation): SearchSummary {
  const { spec, budget } = s;
  const waiting = s.trials.filter((t) => t.status === "proposed").length;
  return ZSearchSummary.parse({
    id: s.id,
    name: s.name,
    status: s.status,
    reason: s.reason,
    strategy: spec.strategy,
    datasetId: s.datasetId,
    target: spec.target,
    task: spec.task,
    metric: spec.objective.metric,
    direction: spec.objective.direction,
    minUsefulGain: spec.objective.minUsefulGain,
    budget: {
      maxTrials: spec.budget.maxTrials,
      maxWallMinutes: spec.budget.maxWallMinutes,
      perTrialMinutes: spec.budget.perTrialMinutes,
      parallelTrials: spec.budget.parallelTrials,
      wallUsedSeconds: Math.round(budget.wallUsedSeconds),
      finalReserveSeconds: budget.finalReserveSeconds,
      trialsBooked: budget.trialsBooked,
      proposalsWaiting: waiting,
      trialsLeft: Math.max(0, spec.budget.maxTrials - budget.trialsBooked - waiting),
    },
    best: s.best ? { trialNumber: s.best.trialNumber, validationValue: s.best.validationValue } : null,
    outcome: outcomeView(s.outcome),
    trialCount: s.trials.length,
    createdAt: iso(s.createdAt),
    endedAt: isoOrNull(s.endedAt),
  });
}

export function spaceParamView(p: SpaceParam): SpaceParamView {
  const when = p.when ? { param: p.when.param, in: p.when.in } : null;
  if (p.kind === "categorical") return { name: p.name, kind: p.kind, low: null, high: null, log: null, choices: p.choices, when };
  return { name: p.name, kind: p.kind, low: p.low, high: p.high, log: p.log, choices: null, when };
}

export function searchDetail(s: SearchValidation): SearchDetail {
  const { spec } = s;
  return ZSearchDetail.parse({
    ...searchSummary(s),
    revision: s.revision,
    settings: { positiveClass: spec.positiveClass, excludeColumns: spec.excludeColumns, split: spec.split, seed: spec.seed, patience: spec.patience },
    space: spec.space.params.map(spaceParamView),
    trials: s.trials.map((t) => ({
      id: t.id,
      number: t.number,
      status: t.status,
      proposer: { kind: t.proposer.kind, name: t.proposer.kind === "agent" ? t.proposer.name : null },
      hypothesis: t.hypothesis,
      params: t.params,
      rejection: t.rejection,
      reservedSeconds: t.reservedSeconds,
      usedSeconds: t.usedSeconds,
      validationValue: t.validationValue,
      reason: t.reason,
      createdAt: iso(t.createdAt),
      endedAt: isoOrNull(t.endedAt),
    })),
  });
}

export function validationResults(s: SearchValidation): z.infer<typeof ZValidationResultsOutput> {
  const baseline = s.baselineValidationValue ?? s.outcome?.baselineValidationValue ?? null;
  return ZValidationResultsOutput.parse({
    searchId: s.id,
    partition: "validation",
    metric: s.spec.objective.metric,
    direction: s.spec.objective.direction,
    minUsefulGain: s.spec.objective.minUsefulGain,
    baselineValidationValue: baseline,
    baselineNote:
      baseline !== null
        ? null
        : s.outcome
          ? "The baseline's validation score is missing, so no trial was shown to beat it."
          : "The baseline's validation score is known once the first trial has been scored; until then compare trials with each other (a trial is chosen only when it beats the baseline by minUsefulGain).",
    best: s.best ? { trialNumber: s.best.trialNumber, validationValue: s.best.validationValue } : null,
    trials: s.trials
      .filter((t) => t.status !== "rejected")
      .map((t) => ({ trialId: t.id, number: t.number, status: t.status, proposer: t.proposer.kind, params: t.params, validationValue: t.validationValue })),
  });
}

const value = (v: unknown) => JSON.stringify(v);

/** One parameter in words: `GBM.learning_rate: a number from 0.01 to 0.3 (log scale), only when family is "GBM"`. */
function paramWords(p: SpaceParam): string {
  const range =
    p.kind === "categorical"
      ? `one of ${p.choices.map(value).join(", ")}`
      : `${p.kind === "int" ? "a whole number" : "a number"} from ${p.low} to ${p.high}${p.log ? " (log scale)" : ""}`;
  const when = p.when ? `, only when ${p.when.param} is ${p.when.in.map(value).join(" or ")}` : "";
  return `${p.name}: ${range}${when}`;
}

/** The search space as an agent reads it in a tool description: every parameter, its range and when it applies. */
export function spaceWords(space: SearchSpace): string {
  return space.params.map(paramWords).join("; ");
}

/** The budget rules propose_experiment applies (searches.service propose, search-budget.ts), in words. */
export const BUDGET_RULES =
  "A proposal is checked against the search's frozen space and what is left of its budget, and refused with every reason when: a parameter is unknown, missing, out of range or does not apply to the chosen family; " +
  "the search is not running or paused; its maxTrials are all booked or waiting (accepted proposals not yet started count); or its time budget has no room for another trial. " +
  `Time counts only while the search runs (not while paused), final test scoring included: the last 5 % of maxWallMinutes (30 to 90 s) is kept back for it, each trial books at most perTrialMinutes of what is left, and no trial starts with less than ${SEARCH_LIMITS.minTrialSeconds} s. ` +
  "A refused proposal is recorded and uses no budget. An accepted one waits as \"proposed\" until the search books it (oldest proposal first, as its trials-at-once allow), then runs as a validation-only training; " +
  "follow it with get_search until its status is succeeded (with its validationValue) or failed.";
