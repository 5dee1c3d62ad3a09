/** The one JSON object `train --json`, `experiments show --json` and `list --json` print. */
import type { ExperimentDetailView } from "@/server/experiments/experiment-views";
import type { RunError } from "@/server/experiments/run-error";
import { runFailure } from "../run-failure";

export interface ExperimentJson {
  experimentId: string;
  status: string;
  task: string;
  metric: string;
  candidate: number | null;
  baseline: number | null;
  metrics: Record<string, number | null>;
  betterThanBaseline: boolean | null;
  exportPath: string | null;
  /** `--computer any`: the computer chosen and why ({"chosen", "why", "considered"}); null when one was named. */
  placement: ExperimentDetailView["placement"];
  /** SHA-256 of the export archive the server verified (it loads and predicts in a fresh Python). */
  exportSha256: string | null;
  exportVerified: boolean;
  seconds: number | null;
  /** heldOutRows: rows kept out for the project's reserved holdouts (null: none were pinned, or not split yet). */
  split: { strategy: string; column: string | null; heldOutRows: number | null };
  dataIssues: { code: string; columns: string[]; severity: string }[];
  appliedActions: string[];
  /** Why the run did not succeed and what to do (code, message, fix, step); null while it runs or once it succeeded. */
  error: RunError | null;
}

export function experimentJson(
  exp: ExperimentDetailView,
  extra: { exportPath?: string | null; seconds?: number | null; dataIssues?: ExperimentJson["dataIssues"] } = {},
): ExperimentJson {
  const metrics = exp.results?.candidate.metrics ?? {};
  const split = exp.settings.split;
  return {
    experimentId: exp.id,
    status: exp.status,
    task: exp.settings.task,
    metric: exp.settings.metric,
    candidate: exp.results?.candidate.primaryValue ?? null,
    baseline: exp.results?.baseline.primaryValue ?? null,
    metrics,
    betterThanBaseline: exp.results ? exp.results.comparison.better : null,
    exportPath: extra.exportPath ?? null,
    placement: exp.placement,
    exportSha256: exp.exportSha256,
    exportVerified: exp.exportSha256 !== null,
    seconds: extra.seconds ?? exp.seconds,
    split: { strategy: split.strategy, column: "column" in split ? split.column : null, heldOutRows: exp.heldOut?.rows ?? null },
    dataIssues: extra.dataIssues ?? exp.settings.dataIssues,
    appliedActions: exp.settings.appliedActions,
    error: runFailure(exp.status, exp.error, exp.note),
  };
}
