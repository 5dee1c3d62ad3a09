/**
 * The CLI's flags for the data checks' recommended actions. The actions themselves are
 * applied by contracts/vocabulary's applyRecommendedActions, the same function the wizard
 * calls: `--keep COLUMN` keeps a flagged column, `--split` overrides the recommended split.
 */
import type { TSplitChoice } from "@/server/experiments/experiments.schema";

/** Parses `--split random|group:COLUMN|time:COLUMN`. */
export function parseSplit(value: string): TSplitChoice {
  if (value === "random") return { strategy: "random" };
  const m = /^(group|time):(.+)$/.exec(value);
  if (!m) throw new Error(`--split takes random, group:COLUMN or time:COLUMN (got "${value}")`);
  return { strategy: m[1] as "group" | "time", column: m[2]! };
}
