// A search's frozen spec for unit tests of its arithmetic: penguins' species, TPE over the
// tabular space, 5 trials in 10 minutes, 2 minutes each, one at a time unless overridden.
import type { SearchSpec } from "@/contracts/searches/search-spec";
import { TABULAR_SPACE } from "@/contracts/searches/tabular-space";

export function testSearchSpec(over: Partial<SearchSpec> = {}, budget: Partial<SearchSpec["budget"]> = {}): SearchSpec {
  const base: SearchSpec = {
    objective: { metric: "accuracy", direction: "higher_is_better", minUsefulGain: 0.01 },
    target: "species",
    task: "multiclass",
    positiveClass: null,
    excludeColumns: [],
    split: { strategy: "random" },
    seed: 1,
    space: TABULAR_SPACE,
    featureOptions: [],
    budget: { maxTrials: 5, maxWallMinutes: 10, perTrialMinutes: 2, parallelTrials: 1 },
    patience: null,
    strategy: "tpe",
    ...over,
  };
  return { ...base, budget: { ...base.budget, ...budget } };
}
