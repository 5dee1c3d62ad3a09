/**
 * The data checks' recommended actions, applied with the same defaults as the CLI
 * (server/cli/train/recommended-actions.ts): exclude_columns → those columns left out,
 * time_split / group_split → that split (the first one wins), drop_rows → informational
 * (the split drops those rows itself). In the wizard each action can be switched off:
 * `decided[key] === false` keeps a column or the random split. Pure; unit-tested.
 */

export interface RecommendedAction {
  kind: string;
  columns?: string[];
  column?: string;
}

export interface DataIssue {
  code: string;
  columns?: string[];
  severity: string;
  message?: string;
  recommendedAction?: RecommendedAction | null;
}

export type SplitChoice = { strategy: "random" } | { strategy: "time" | "group"; column: string };

export interface Applied {
  excludeColumns: string[];
  split: SplitChoice;
  appliedActions: string[];
}

/** A stable key for one issue (the same issue after a re-check keeps the user's decision). */
export const issueKey = (i: DataIssue): string => `${i.code}:${(i.columns ?? []).join(",")}`;

/** Whether the issue's action changes training at all (drop_rows and none do not). */
export function isActionable(i: DataIssue): boolean {
  const k = i.recommendedAction?.kind;
  return k === "exclude_columns" || k === "time_split" || k === "group_split";
}

/** What the action would do, in words, for the checkbox label. */
export function actionLabel(i: DataIssue, target: string): string {
  const a = i.recommendedAction;
  if (!a || a.kind === "none") return "No action needed";
  if (a.kind === "exclude_columns") {
    const cols = (a.columns ?? i.columns ?? []).filter((c) => c !== target);
    return `Leave out ${cols.join(", ")}`;
  }
  if (a.kind === "time_split") return `Split by time on ${a.column ?? i.columns?.[0]} (test on the latest rows)`;
  if (a.kind === "group_split") return `Keep each ${a.column ?? i.columns?.[0]} group in one partition`;
  if (a.kind === "drop_rows") return "These rows are left out by the split automatically";
  return a.kind;
}

export function applyDecisions(issues: DataIssue[], target: string, decided: Record<string, boolean>): Applied {
  const exclude: string[] = [];
  const applied: string[] = [];
  let split: SplitChoice | null = null;
  for (const issue of issues) {
    const action = issue.recommendedAction;
    if (!action || !isActionable(issue)) continue;
    const on = decided[issueKey(issue)] ?? true;
    if (action.kind === "exclude_columns") {
      for (const col of action.columns ?? issue.columns ?? []) {
        if (col === target) continue;
        if (!on) applied.push(`kept ${col} despite ${issue.code}`);
        else if (!exclude.includes(col)) {
          exclude.push(col);
          applied.push(`left out ${col}: ${issue.code}`);
        }
      }
    } else {
      const column = action.column ?? issue.columns?.[0];
      if (!column || column === target) continue;
      const strategy = action.kind === "time_split" ? "time" : "group";
      if (!on) applied.push(`random split instead of ${strategy} on ${column} (${issue.code})`);
      else if (!split) {
        split = { strategy, column };
        applied.push(`split: ${strategy} on ${column} (${issue.code})`);
      }
    }
  }
  return { excludeColumns: exclude, split: split ?? { strategy: "random" }, appliedActions: applied };
}
