/**
 * What a search chose when it ended (issue 17), on validation only: the best trial, when
 * it beats the baseline by at least the minimum useful gain, else "keep the baseline" — a
 * valid outcome, not a failure. The test partition plays no part here; it is scored once,
 * afterwards, for whatever was chosen.
 */
import { z } from "zod";
import type { SearchSpec } from "@/contracts/searches/search-spec";
import type { Db } from "@/server/db/client";
import { ZTrialResults } from "@/server/experiments/pipelines/tabular-trial";
import { parseStoredJson } from "@/server/db/stored-json";
import { gain } from "./search-budget";
import { searchesRepository, type TrialRow } from "./searches.repository";

export const ZSearchOutcome = z.discriminatedUnion("kind", [
  z.strictObject({
    kind: z.literal("candidate"),
    trialNumber: z.int(),
    validationValue: z.number(),
    baselineValidationValue: z.number(),
    gain: z.number(),
    /** Why the search ended ("it ran its maximum number of trials"). */
    ended: z.string(),
  }),
  z.strictObject({
    kind: z.literal("keep_baseline"),
    reason: z.string(),
    bestTrialNumber: z.int().nullable(),
    bestValidationValue: z.number().nullable(),
    baselineValidationValue: z.number().nullable(),
    ended: z.string(),
  }),
]);
export type SearchOutcome = z.infer<typeof ZSearchOutcome>;

/** The best succeeded trial in the objective's direction (the earliest on a tie). */
export function bestTrial(spec: SearchSpec, trials: readonly TrialRow[]): TrialRow | null {
  let best: TrialRow | null = null;
  for (const t of trials) {
    if (t.status !== "succeeded" || t.validationValue === null) continue;
    if (!best || gain(spec, t.validationValue, best.validationValue!) > 0) best = t;
  }
  return best;
}

export async function chooseOutcome(db: Db, spec: SearchSpec, trials: readonly TrialRow[], ended: string): Promise<SearchOutcome> {
  const best = bestTrial(spec, trials);
  if (!best) return { kind: "keep_baseline", reason: "No trial produced a validation score.", bestTrialNumber: null, bestValidationValue: null, baselineValidationValue: null, ended };
  const exp = best.experimentId ? await searchesRepository(db).experiment(best.experimentId) : null;
  const results = parseStoredJson(ZTrialResults, exp?.results ?? null);
  const value = best.validationValue!;
  const baseline = results?.baselineValidation.primaryValue ?? null;
  if (baseline === null) return { kind: "keep_baseline", reason: "The baseline's validation score is missing, so no trial can be shown to beat it.", bestTrialNumber: best.number, bestValidationValue: value, baselineValidationValue: null, ended };
  const g = gain(spec, value, baseline);
  if (g >= spec.objective.minUsefulGain) return { kind: "candidate", trialNumber: best.number, validationValue: value, baselineValidationValue: baseline, gain: g, ended };
  return {
    kind: "keep_baseline",
    reason: `The best trial (${best.number}) beat the baseline by ${g.toPrecision(3)} on validation, less than the minimum useful gain of ${spec.objective.minUsefulGain}.`,
    bestTrialNumber: best.number,
    bestValidationValue: value,
    baselineValidationValue: baseline,
    ended,
  };
}
