/**
 * The tabular pipeline's step names, in order: a leaf module, so what reads the steps'
 * results (chain-results.ts) can name them without importing the pipeline that collects them.
 */
export const TABULAR_STEPS = [
  "split",
  "features_train",
  "features_test",
  "train",
  "predict",
  "baseline",
  "score_candidate",
  "score_baseline",
  "package",
] as const;
export type TabularStep = (typeof TABULAR_STEPS)[number];
