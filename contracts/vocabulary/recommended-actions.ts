/**
 * The data checks' recommended actions, applied one way for the wizard and the CLI:
 * exclude_columns leaves those columns out, time_split / group_split picks that split (the
 * first one wins), drop_rows and none change nothing (the split drops those rows itself).
 * The target is never left out or split on. What a person decided instead is passed in:
 * the wizard switches single issues off (`decided[issueKey] === false`), the CLI keeps
 * named columns (`--keep`) and may choose the split (`--split`). Pure.
 */

import type { DataIssue } from "../recipes/data";

/** The part of a checks.json issue these functions read. */
export type RecommendableIssue = Pick<DataIssue, "code" | "columns" | "recommendedAction"> & Partial<Pick<DataIssue, "severity">>;

export type SplitChoice = { strategy: "random" } | { strategy: "time" | "group"; column: string };

export interface Decisions {
  /** Per issueKey: false keeps what the issue's action would change (a wizard checkbox). */
  decided?: Readonly<Record<string, boolean>>;
  /** Columns kept although an action would leave them out. */
  keep?: readonly string[];
  /** A split chosen by the person: it wins over any recommended one. */
  split?: SplitChoice | null;
}

export interface AppliedActions {
  excludeColumns: string[];
  split: SplitChoice;
  /** What was done and what was declined, for the experiment's record. */
  appliedActions: string[];
}

/** A stable key for one issue: the same issue after a re-check keeps the person's decision. */
export const issueKey = (i: RecommendableIssue): string => `${i.code}:${i.columns.join(",")}`;

/** Whether the issue's action changes training at all (drop_rows and none do not). */
export function isActionable(i: RecommendableIssue): boolean {
  const k = i.recommendedAction.kind;
  return k === "exclude_columns" || k === "time_split" || k === "group_split";
}

/** What the action would do, in words, for the wizard's checkbox label. */
export function actionLabel(i: RecommendableIssue, target: string): string {
  const a = i.recommendedAction;
  switch (a.kind) {
    case "exclude_columns":
      return `Leave out ${a.columns.filter((c) => c !== target).join(", ")}`;
    case "time_split":
      return `Split by time on ${a.column} (test on the latest rows)`;
    case "group_split":
      return `Keep each ${a.column} group in one partition`;
    case "drop_rows":
      return "These rows are left out by the split automatically";
    case "none":
      // A high issue with no action is one no choice here fixes: the data itself has to change.
      return i.severity === "high" ? "No choice here fixes this: it needs other data (for example more labelled rows)" : "No action needed";
  }
}

const splitWords = (s: SplitChoice) => `${s.strategy}${"column" in s ? ` on ${s.column}` : ""}`;

export function applyRecommendedActions(issues: readonly RecommendableIssue[], target: string, decisions: Decisions = {}): AppliedActions {
  const keep = new Set(decisions.keep ?? []);
  const exclude: string[] = [];
  const applied: string[] = [];
  const chosen = decisions.split ?? null;
  let split: SplitChoice | null = chosen;
  if (chosen) applied.push(`split: ${splitWords(chosen)} (chosen)`);
  for (const issue of issues) {
    const action = issue.recommendedAction;
    const on = decisions.decided?.[issueKey(issue)] ?? true;
    if (action.kind === "exclude_columns") {
      for (const col of action.columns) {
        if (col === target) continue;
        if (!on || keep.has(col)) applied.push(`kept ${col} despite ${issue.code}`);
        else if (!exclude.includes(col)) {
          exclude.push(col);
          applied.push(`left out ${col}: ${issue.code}`);
        }
      }
      continue;
    }
    if (action.kind !== "time_split" && action.kind !== "group_split") continue;
    const column = action.column;
    if (column === target || chosen) continue;
    const strategy = action.kind === "time_split" ? "time" : "group";
    if (!on) applied.push(`random split instead of ${strategy} on ${column} (${issue.code})`);
    else if (!split) {
      split = { strategy, column };
      applied.push(`split: ${strategy} on ${column} (${issue.code})`);
    }
  }
  return { excludeColumns: exclude, split: split ?? { strategy: "random" }, appliedActions: applied };
}
