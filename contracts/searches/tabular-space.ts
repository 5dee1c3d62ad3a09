/**
 * The tabular recipe's declared search space (issue 17): which model family AutoGluon
 * trains and that family's main hyperparameters, named `<family>.<AutoGluon name>`. A
 * trial's settings become the train job's `hyperparameters` through hyperparametersOf.
 * Ranges are the libraries' usual tuning ranges, kept narrow enough that every point
 * trains in seconds on a small table.
 */
import type { SearchSpace, SpaceParam, TrialParams } from "../recipes/search";

export const SEARCH_FAMILIES = ["GBM", "CAT", "RF", "XT"] as const;
export type SearchFamily = (typeof SEARCH_FAMILIES)[number];

const only = (family: SearchFamily) => ({ param: "family", in: [family] });
const forest = (family: "RF" | "XT"): SpaceParam[] => [
  { kind: "int", name: `${family}.n_estimators`, low: 50, high: 300, log: false, when: only(family) },
  { kind: "categorical", name: `${family}.max_features`, choices: ["sqrt", "log2", 0.5], when: only(family) },
  { kind: "int", name: `${family}.min_samples_leaf`, low: 1, high: 10, log: false, when: only(family) },
];

export const TABULAR_SPACE: SearchSpace = {
  params: [
    { kind: "categorical", name: "family", choices: [...SEARCH_FAMILIES] },
    { kind: "float", name: "GBM.learning_rate", low: 0.01, high: 0.3, log: true, when: only("GBM") },
    { kind: "int", name: "GBM.num_leaves", low: 8, high: 128, log: true, when: only("GBM") },
    { kind: "int", name: "GBM.min_data_in_leaf", low: 2, high: 50, log: true, when: only("GBM") },
    { kind: "float", name: "CAT.learning_rate", low: 0.01, high: 0.3, log: true, when: only("CAT") },
    { kind: "int", name: "CAT.depth", low: 4, high: 8, log: false, when: only("CAT") },
    { kind: "float", name: "CAT.l2_leaf_reg", low: 1, high: 10, log: true, when: only("CAT") },
    ...forest("RF"),
    ...forest("XT"),
  ],
};

/** A trial's settings as AutoGluon hyperparameters: only the chosen family, with its own values. */
export function hyperparametersOf(params: TrialParams): Partial<Record<SearchFamily, Record<string, string | number | boolean>>> {
  const family = params.family;
  if (typeof family !== "string" || !(SEARCH_FAMILIES as readonly string[]).includes(family)) throw new Error(`a tabular trial names its model family (got ${String(family)})`);
  const own: Record<string, string | number | boolean> = {};
  for (const [k, v] of Object.entries(params)) if (k.startsWith(`${family}.`)) own[k.slice(family.length + 1)] = v;
  return { [family as SearchFamily]: own };
}

/** A yes/no "leave this column out" parameter per flagged column, named from the column (made unique). */
export function featureOptionsFor(columns: readonly string[]): { param: string; column: string }[] {
  const used = new Set<string>();
  return columns.map((column) => {
    const base = `drop.${column.replace(/[^\w]/g, "_").slice(0, 80) || "column"}`;
    let param = base;
    for (let i = 2; used.has(param); i++) param = `${base}_${i}`;
    used.add(param);
    return { param, column };
  });
}

/** The tabular space with the feature options added after the model parameters. */
export function tabularSpaceWith(options: readonly { param: string }[]): SearchSpace {
  return { params: [...TABULAR_SPACE.params, ...options.map((o): SpaceParam => ({ kind: "categorical", name: o.param, choices: [false, true] }))] };
}

/** The columns a trial's settings leave out on top of the search's own. */
export const droppedColumns = (options: readonly { param: string; column: string }[], params: TrialParams) => options.filter((o) => params[o.param] === true).map((o) => o.column);

/**
 * Data-check findings whose columns a search may try without, when the person kept them:
 * such a column may help or may be a shortcut. (Missing values are not among them: a few
 * gaps are no reason to drop a column, and random starts dropping half of them wasted
 * trials on penguins.)
 */
export const FEATURE_OPTION_ISSUES = ["id_like_column", "leakage_suspect"] as const;

/** The flagged columns still used as features: what a search offers to leave out (at most 20). */
export function featureOptionColumns(issues: readonly { code: string; columns: readonly string[] }[], target: string, excluded: readonly string[]): string[] {
  const out = new Set<string>();
  for (const i of issues) {
    if (!(FEATURE_OPTION_ISSUES as readonly string[]).includes(i.code)) continue;
    for (const c of i.columns) if (c !== target && !excluded.includes(c)) out.add(c);
  }
  return [...out].slice(0, 20);
}
