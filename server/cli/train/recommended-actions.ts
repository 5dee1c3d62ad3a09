/**
 * The defaults the data checks recommend, applied the same way by the CLI and the
 * wizard: leave out flagged columns, use the recommended time or group split.
 * `--keep COLUMN` keeps a flagged column; `--split` overrides the split.
 */
import type { TSplitChoice } from "@/server/experiments/experiments.schema";

export interface DataIssue {
  code: string;
  columns?: string[];
  severity: string;
  message?: string;
  recommendedAction?: { kind: string; columns?: string[]; column?: string } | null;
}

export interface AppliedDefaults {
  excludeColumns: string[];
  split: TSplitChoice;
  appliedActions: string[];
}

export function applyRecommendedActions(
  issues: DataIssue[],
  target: string,
  opts: { keep?: string[]; split?: TSplitChoice | null } = {},
): AppliedDefaults {
  const keep = new Set(opts.keep ?? []);
  const exclude = new Set<string>();
  const applied: string[] = [];
  const chosen = opts.split ?? null;
  let split: TSplitChoice | null = chosen;
  if (chosen) applied.push(`split: ${chosen.strategy}${"column" in chosen ? ` on ${chosen.column}` : ""} (chosen)`);
  for (const issue of issues) {
    const action = issue.recommendedAction;
    if (!action) continue;
    if (action.kind === "exclude_columns") {
      for (const col of action.columns ?? issue.columns ?? []) {
        if (col === target) continue;
        if (keep.has(col)) {
          applied.push(`kept ${col} despite ${issue.code} (--keep)`);
        } else if (!exclude.has(col)) {
          exclude.add(col);
          applied.push(`left out ${col}: ${issue.code}`);
        }
      }
    } else if ((action.kind === "time_split" || action.kind === "group_split") && !split) {
      const column = action.column ?? issue.columns?.[0];
      if (!column || column === target) continue;
      const strategy = action.kind === "time_split" ? "time" : "group";
      split = { strategy, column };
      applied.push(`split: ${strategy} on ${column} (${issue.code})`);
    }
  }
  return { excludeColumns: [...exclude], split: split ?? { strategy: "random" }, appliedActions: applied };
}

/** Parses `--split random|group:COLUMN|time:COLUMN`. */
export function parseSplit(value: string): TSplitChoice {
  if (value === "random") return { strategy: "random" };
  const m = /^(group|time):(.+)$/.exec(value);
  if (!m) throw new Error(`--split takes random, group:COLUMN or time:COLUMN (got "${value}")`);
  return { strategy: m[1] as "group" | "time", column: m[2]! };
}
