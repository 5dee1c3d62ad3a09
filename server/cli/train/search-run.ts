/**
 * `trainyard train --mode improve`: start a bounded search on the checked data, follow it
 * on stderr (a line per trial), then print what it chose and its one test score; download
 * the chosen model's verified export. A search that kept the baseline succeeds too, and
 * says so: it is a valid outcome, not a failure.
 */
import { randomUUID } from "node:crypto";
import type { Metric } from "@/contracts/vocabulary";
import type { SearchView } from "@/server/searches/search-views";
import { withRetry, type Connection } from "../api-client";
import { downloadExport } from "./download-export";
import { waitUntil } from "./follow";
import { formatComparison } from "./format-score";
import { paramsWords } from "@/contracts/searches/params-words";
import { trialMinutesFor } from "@/contracts/searches/search-spec";

// Its home is contracts/ (the search page uses it too); kept importable from here for the CLI commands.

export interface SearchRunOptions {
  projectId: string;
  datasetId: string;
  targetId?: string;
  target: string;
  task: "binary" | "multiclass" | "regression";
  metric: Metric;
  positiveClass: string | null;
  excludeColumns: string[];
  featureOptions: string[];
  split: { strategy: "random" } | { strategy: "group" | "time"; column: string };
  maxMinutes: number;
  maxTrials: number;
  trialMinutes: number | undefined;
  parallelTrials: number;
  patience: number | undefined;
  minGain: number | undefined;
  out: string;
  json: boolean;
}

const round = (v: number | null | undefined) => (v === null || v === undefined ? null : Number(v.toPrecision(4)));

export async function runSearch(conn: Connection, o: SearchRunOptions, log: (l: string) => void): Promise<number> {
  const started = Date.now();
  const trialMinutes = o.trialMinutes ?? trialMinutesFor(o.maxMinutes, o.maxTrials, o.parallelTrials);
  const opId = randomUUID();
  const s = await withRetry(() =>
    conn.api.searches.start.mutate({
      opId,
      projectId: o.projectId,
      datasetId: o.datasetId,
      ...(o.targetId ? { targetId: o.targetId } : {}),
      target: o.target,
      task: o.task,
      metric: o.metric,
      positiveClass: o.positiveClass,
      excludeColumns: o.excludeColumns,
      featureOptions: o.featureOptions,
      split: o.split,
      budget: { maxTrials: o.maxTrials, maxWallMinutes: o.maxMinutes, perTrialMinutes: trialMinutes, parallelTrials: o.parallelTrials },
      ...(o.patience ? { patience: o.patience } : {}),
      ...(o.minGain !== undefined ? { minUsefulGain: o.minGain } : {}),
    }),
  );
  log(`Search ${s.id} started: ${s.name} (at most ${o.maxTrials} trials in ${o.maxMinutes} min, ${round(trialMinutes)} min per trial${o.parallelTrials > 1 ? `, ${o.parallelTrials} at once` : ""})`);
  const said = new Set<string>();
  const final = (await waitUntil(
    () => conn.api.searches.get.query({ id: s.id }),
    (v) => v.status === "completed" || v.status === "failed",
    {
      what: `search ${s.id}`,
      everyMs: 2000,
      timeoutMs: o.maxMinutes * 60_000 + 30 * 60_000,
      onWait: log,
      onTick: (v) => {
        for (const t of v.trials) {
          const key = `${t.number}:${t.status}`;
          if (said.has(key) || t.status === "reserved") continue;
          said.add(key);
          const score = t.validationValue === null ? "" : ` validation ${o.metric} ${round(t.validationValue)}`;
          log(`  trial ${t.number} ${t.status}${score}: ${paramsWords(t.params)}${t.reason && t.status !== "succeeded" && t.status !== "running" ? ` (${t.reason})` : ""}`);
        }
        if (v.status === "finalizing" && !said.has("final")) {
          said.add("final");
          log(`Search ended (${v.reason ?? "done"}); scoring the choice once on the test partition…`);
        }
      },
    },
  )) as SearchView;
  let exportPath: string | null = null;
  if (final.status === "completed" && final.final?.exportSha256) {
    const exp = await withRetry(() => conn.api.experiments.get.query({ id: final.final!.experimentId }));
    exportPath = await downloadExport(conn, exp, o.out, log);
  }
  const outcome = final.outcome;
  const test = final.final;
  const result = {
    searchId: final.id,
    status: final.status,
    reason: final.reason,
    outcome: outcome?.kind ?? null,
    chosenTrial: outcome?.kind === "candidate" ? outcome.trialNumber : null,
    trials: final.trials.filter((t) => t.reservedSeconds > 0).length,
    wallSeconds: Math.round(final.budget.wallUsedSeconds),
    wallBudgetSeconds: final.budget.wallBudgetSeconds,
    metric: o.metric,
    validation: outcome?.kind === "candidate" ? outcome.validationValue : (outcome?.bestValidationValue ?? null),
    baselineValidation: outcome?.baselineValidationValue ?? null,
    test: test?.candidate?.primaryValue ?? null,
    baselineTest: test?.baseline?.primaryValue ?? null,
    finalExperimentId: test?.experimentId ?? null,
    exportPath,
    seconds: Math.round((Date.now() - started) / 1000),
  };
  const failure = final.status === "completed" ? null : `The search did not complete: ${final.reason ?? final.status}`;
  if (o.json) {
    console.log(JSON.stringify(failure ? { ...result, error: { message: failure, code: "search_failed" } } : result, null, 2));
    return failure ? 1 : 0;
  }
  console.log(`Search ${final.id}: ${final.status} in ${result.seconds} s, ${result.trials} trials (${final.reason ?? ""})`);
  if (outcome?.kind === "candidate") {
    console.log(`Chosen: trial ${outcome.trialNumber}, validation ${formatComparison(o.metric, outcome.validationValue, outcome.baselineValidationValue)}`);
    if (result.test !== null) console.log(`Test (scored once): ${formatComparison(o.metric, result.test, result.baselineTest)}`);
  } else if (outcome) {
    console.log(`Keep the baseline: ${outcome.reason}`);
    if (result.baselineTest !== null) console.log(`Baseline on test (scored once): ${o.metric} ${round(result.baselineTest)}`);
  }
  if (failure) console.log(failure);
  if (exportPath) console.log(`Export: ${exportPath}`);
  return failure ? 1 : 0;
}
