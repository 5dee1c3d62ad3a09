/**
 * Can this target be trained at all? The one place that answers it, from the dataset's
 * profile (server/datasets/profile.schema.ts) and the chosen settings, before any job
 * runs: the wizard shows the answer and disables Start; experiments.start refuses the
 * same setups with BAD_INPUT, so the CLI and the API get the same reasons.
 *
 * Refusals are setups the chain cannot finish (it would fail late, in the split, the
 * features or the training job); warnings are setups that train but are probably not
 * what the user meant. Pure: no database, no worker.
 *
 * Limits: class counts come from the profile (the 10 most common and the 10 rarest
 * values), counted before the split drops exact duplicate rows, so a class whose rows
 * are mostly duplicates can still pass here and fail in the split.
 */
import type { TProfile, TProfileColumn } from "@/server/datasets/profile.schema";
import type { TExperimentSettings } from "./experiments.schema";

export interface ReadinessReason {
  code: string;
  columns: string[];
  message: string;
}

export interface TargetReadiness {
  refusals: ReadinessReason[];
  warnings: ReadinessReason[];
}

export type ReadinessSettings = Pick<TExperimentSettings, "target" | "task"> & Partial<Pick<TExperimentSettings, "excludeColumns" | "split">>;

export type Fractions = { train: number; validation: number; test: number };
/** The chain's split shares (it passes none, so the data recipe's defaults: inputs.py). */
export const SPLIT_FRACTIONS: Fractions = { train: 0.7, validation: 0.15, test: 0.15 };
/** The tabular recipe's floor (data_prep.py): at least 5 training rows and 1 validation row. */
const MIN_TRAIN_ROWS = 5;
/** The feature files reserve this name (data recipe, features.py). */
const RESERVED_COLUMN = "row_id";

/** n rows cut by the shares with largest-remainder rounding, exactly as data.split does (split.py). */
export function cutCounts(n: number, f: Fractions = SPLIT_FRACTIONS): [number, number, number] {
  const exact = [n * f.train, n * f.validation, n * f.test];
  const counts = exact.map(Math.floor);
  const order = [0, 1, 2].sort((a, b) => exact[b]! - counts[b]! - (exact[a]! - counts[a]!) || a - b);
  for (const i of order.slice(0, n - counts.reduce((s, c) => s + c, 0))) counts[i]!++;
  return counts as [number, number, number];
}

/** The fewest rows a class needs so the stratified split puts one in training, validation and test. */
export function minRowsPerClass(f: Fractions = SPLIT_FRACTIONS): number {
  for (let n = 1; n < 1000; n++) if (cutCounts(n, f).every((c) => c > 0)) return n;
  return 1000;
}

const rowsWord = (n: number) => `${n.toLocaleString("en")} row${n === 1 ? "" : "s"}`;
const pct = (f: Fractions) => `${Math.round(f.train * 100)}/${Math.round(f.validation * 100)}/${Math.round(f.test * 100)}`;

/** Rows with a value in this column. */
const labelled = (c: TProfileColumn, rows: number) => rows - c.missing;

/** Every labelled row has its own value (and there are at least two rows). */
function uniquePerRow(c: TProfileColumn, rows: number): boolean {
  const n = labelled(c, rows);
  return n >= 2 && c.distinct === n;
}

/**
 * Why a column looks like a row identifier, or null: a whole number different in every
 * row that counts up or down (or whose name says id), or a code different in every row.
 */
export function idLikeReason(c: TProfileColumn, rows: number): string | null {
  if (!uniquePerRow(c, rows)) return null;
  if (c.integers && c.order) return `${c.name} holds a different whole number in every row, ${c.order === "increasing" ? "counting up" : "counting down"} row by row`;
  if (c.integers && c.type === "id_like") return `${c.name} holds a different whole number in every row and its name says it is an ID`;
  if (c.type === "id_like") return `${c.name} holds a different code in every row`;
  return null;
}

/** Columns not worth offering as the column to predict, with why. */
export function idLikeColumns(profile: TProfile): { name: string; reason: string }[] {
  return profile.columns.flatMap((c) => {
    const reason = idLikeReason(c, profile.rows);
    return reason ? [{ name: c.name, reason }] : [];
  });
}

/** Class → rows, as far as the profile knows them, and whether that list is complete. */
function classCounts(c: TProfileColumn): { counts: Map<string, number>; complete: boolean } {
  const counts = new Map<string, number>();
  for (const v of [...(c.topValues ?? []), ...(c.fewestValues ?? [])]) counts.set(v.value, v.count);
  return { counts, complete: counts.size >= c.distinct };
}

const NUMERIC_DTYPE = /^(u?int|float|bool)/i;

function featureReasons(profile: TProfile, s: ReadinessSettings): ReadinessReason[] {
  const exclude = new Set(s.excludeColumns ?? []);
  const others = profile.columns.filter((c) => c.name !== s.target);
  const features = others.filter((c) => !exclude.has(c.name));
  if (others.length === 0) {
    return [{
      code: "no_feature_columns",
      columns: [s.target],
      message: `${s.target} is the only column in the file, so there is nothing to predict it from: a model needs at least one other column (the inputs that describe each row). Add those columns to the file, or choose a file that has them.`,
    }];
  }
  if (features.length === 0) {
    return [{
      code: "no_feature_columns",
      columns: [...exclude],
      message: `Every column besides ${s.target} is left out (${others.map((c) => c.name).join(", ")}), so there is nothing to predict it from. Keep at least one of them.`,
    }];
  }
  const useless = features.filter((c) => c.type === "empty" || c.distinct <= 1);
  if (useless.length === features.length) {
    const why = useless.map((c) => (c.type === "empty" ? `${c.name} is empty` : `${c.name} has one value in every row`)).join(", ");
    return [{ code: "no_usable_features", columns: useless.map((c) => c.name), message: `None of the columns left to learn from can help: ${why}. Add columns that differ between rows.` }];
  }
  return [];
}

function taskReasons(t: TProfileColumn, rows: number, s: ReadinessSettings): ReadinessReason[] {
  const c = [t.name];
  if (t.distinct === 0) return [{ code: "target_empty", columns: c, message: `${t.name} has no values (every row is missing); there is nothing to learn. Choose another column.` }];
  if (t.distinct === 1) {
    const only = t.topValues?.[0]?.value;
    return [{ code: "target_single_value", columns: c, message: `${t.name} has the same value${only !== undefined ? ` (${only})` : ""} in every row, so there is nothing to predict. Choose a column whose values differ.` }];
  }
  if (t.type === "datetime") return [{ code: "unsupported_target", columns: c, message: `${t.name} holds dates; predicting a date is not supported. Choose a number or a category.` }];
  if (s.task === "regression") {
    if (!NUMERIC_DTYPE.test(t.dtype)) return [{ code: "target_not_numeric", columns: c, message: `${t.name} is not a number (it holds values like ${t.topValues?.[0]?.value ?? "text"}), so it cannot be a regression target. Choose classification, or a numeric column.` }];
    return [];
  }
  if (s.task === "binary" && t.distinct !== 2) return [{ code: "task_mismatch", columns: c, message: `Yes/no (binary) classification needs exactly two values; ${t.name} has ${t.distinct.toLocaleString("en")}. Choose ${t.distinct > 2 ? "multiclass classification" : "another column"}.` }];
  if (s.task === "multiclass" && t.distinct < 3) return [{ code: "task_mismatch", columns: c, message: `${t.name} has only two values: choose yes/no (binary) classification instead of multiclass.` }];
  if (uniquePerRow(t, rows)) {
    const numeric = NUMERIC_DTYPE.test(t.dtype);
    return [{
      code: "target_unique_per_row",
      columns: c,
      message: `${t.name} has a different value in each of its ${rowsWord(labelled(t, rows))}: as classes, every class would have one row, so no class could be learned and tested. ${numeric ? `If ${t.name} is a quantity, choose regression; if it` : "If it"} identifies rows, choose another column to predict.`,
    }];
  }
  return [];
}

function classReasons(t: TProfileColumn, f: Fractions): ReadinessReason[] {
  const need = minRowsPerClass(f);
  const { counts, complete } = classCounts(t);
  const small = [...counts].filter(([, n]) => n < need).sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]));
  if (!small.length) return [];
  const listed = small.map(([k, n]) => `${k} (${rowsWord(n)})`).join(", ");
  const more = !complete && small.length >= (t.fewestValues?.length ?? 0) ? " and possibly more" : "";
  return [{
    code: "class_too_small",
    columns: [t.name],
    message: `Some classes of ${t.name} have too few rows for the ${pct(f)} train/validation/test split: ${listed}${more}. Each class needs at least ${need} rows so that training, validation and test each get one. Merge ${small.length === 1 ? "it into a similar class" : "them into bigger classes"}, add more rows of ${small.length === 1 ? "it" : "them"}, or drop those rows from the file.`,
  }];
}

function rowReasons(profile: TProfile, t: TProfileColumn, f: Fractions): ReadinessReason[] {
  // Rows the split can use: a target value, and not an exact copy of an earlier row.
  const usable = Math.max(0, labelled(t, profile.rows) - profile.duplicateRows);
  const [train, validation, test] = cutCounts(usable, f);
  if (train >= MIN_TRAIN_ROWS && validation >= 1 && test >= 1) return [];
  return [{
    code: "too_few_rows",
    columns: [t.name],
    message: `Only ${rowsWord(usable)} can be used (with a value in ${t.name}, duplicates left out): a ${pct(f)} split gives ${train} for training, ${validation} for validation and ${test} for testing, and training needs at least ${MIN_TRAIN_ROWS}, 1 and 1. Add more rows.`,
  }];
}

export function targetReadiness(profile: TProfile, s: ReadinessSettings, f: Fractions = SPLIT_FRACTIONS): TargetReadiness {
  const names = new Set(profile.columns.map((c) => c.name));
  const t = profile.columns.find((c) => c.name === s.target);
  if (!t) return { refusals: [{ code: "unknown_column", columns: [s.target], message: `There is no column "${s.target}" in this data.` }], warnings: [] };
  const refusals: ReadinessReason[] = [];
  const unknown = [...(s.excludeColumns ?? []), ...(s.split && s.split.strategy !== "random" ? [s.split.column] : [])].filter((n) => !names.has(n));
  if (unknown.length) refusals.push({ code: "unknown_column", columns: unknown, message: `${unknown.join(", ")} ${unknown.length === 1 ? "is not a column" : "are not columns"} of this data.` });
  if (names.has(RESERVED_COLUMN)) {
    refusals.push({ code: "reserved_column", columns: [RESERVED_COLUMN], message: `The data has a column named ${RESERVED_COLUMN}, a name Trainyard reserves for its own row numbers. Rename that column in the file and upload it again.` });
  }
  refusals.push(...featureReasons(profile, s));
  const task = taskReasons(t, profile.rows, s);
  refusals.push(...task);
  // Per-class and row counts only mean something once the target itself can be trained.
  if (!task.length) {
    if (s.task !== "regression") refusals.push(...classReasons(t, f));
    refusals.push(...rowReasons(profile, t, f));
  }
  const warnings: ReadinessReason[] = [];
  const id = idLikeReason(t, profile.rows);
  if (s.task === "regression" && id && !task.length) {
    warnings.push({ code: "target_looks_like_id", columns: [t.name], message: `${id}: it looks like a row ID, not a quantity to predict, and the other columns cannot tell a model what ID a row got. Choose the column you actually want to predict.` });
  }
  return { refusals, warnings };
}

/** All refusals in one sentence list, for an error message. */
export function refusalText(r: TargetReadiness): string {
  return r.refusals.map((x) => x.message).join(" ");
}
