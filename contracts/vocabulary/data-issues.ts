/**
 * The data checks' issue codes (training/recipes/data/checks.py) in plain words, shown
 * next to the code: "looks like an ID" says more to a new user than `id_like_column`.
 */
const ISSUE_WORDS: Record<string, string> = {
  id_like_column: "looks like an ID",
  leakage_suspect: "may contain the answer",
  missing_target: "rows without a value to predict",
  missing_values: "missing values",
  duplicate_rows: "repeated rows",
  constant_column: "the same value in every row",
  time_column: "dates: test on the latest rows",
  group_column: "rows come in groups",
  too_few_rows: "too few rows",
  class_imbalance: "some classes are rare",
  unknown_class: "unknown class",
};

/** An unknown code falls back to the code with spaces. */
export function issueWords(code: string): string {
  return ISSUE_WORDS[code] ?? code.replace(/_/g, " ");
}
