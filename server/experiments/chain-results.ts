/**
 * What an experiment shows when its chain is done: both receipts, the comparison, the
 * training leaderboard and feature information, resources per step, and the verified
 * export copied into the controller's artifacts folder. Read once (each file through its
 * recipe contract), stored as JSON, and parsed with ZExperimentResults when read back.
 */
import { mkdir, rename } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { ZExportSummary, ZFeatureImportance, ZFeatureSchema, ZLeaderboard, ZPredictLatency, ZReceipt, ZTraining } from "@/contracts/recipes";
import { ZUsage } from "@/contracts/worker";
import type { Db } from "@/server/db/client";
import { parseStoredJson } from "@/server/db/stored-json";
import { homePaths } from "@/server/config/home";
import { controllerRuntime } from "@/server/config/runtime";
import { readOptionalOutput, readOutput } from "@/server/jobs/read-output";
import { compareReceipts, ZComparison } from "./compare";
import { TABULAR_STEPS, type TabularStep as StepName } from "./pipelines/tabular-steps";
import type { StepJob } from "./chain-jobs";
import { copyOutputFile } from "./job-outputs";
import { exportNames, ZExportNames } from "@/server/experiments/export-names";

export const ZExperimentResults = z.object({
  candidate: ZReceipt,
  baseline: ZReceipt,
  comparison: ZComparison,
  /** null: results stored before training.json was read here. */
  training: ZTraining.nullable(),
  /** null: an older train job that wrote none. */
  leaderboard: ZLeaderboard.nullable(),
  /** null: skipped for time or failed (training.featureImportanceNote says which). */
  featureImportance: ZFeatureImportance.nullable(),
  featureSchema: ZFeatureSchema.nullable(),
  /** Single-row predictions timed by the test predict step; absent: results from before it was timed. */
  latency: ZPredictLatency.nullable().optional(),
  usage: z.partialRecord(z.enum(TABULAR_STEPS), ZUsage.nullable()),
  /** Set when evaluation and export ran past the budget (chain-budget.ts budgetNote); the page shows it. */
  budgetNote: z.string().nullable().optional(),
  /** fileName, folder and loadingCommands: what the download, the CLI and the model card call it. */
  export: ZExportNames.extend({ sha256: z.string(), bytes: z.number(), modelSha256: z.string() }),
});
export type ExperimentResults = z.infer<typeof ZExperimentResults>;

/** Stored results as the views read them: null when there are none or they predate this shape. */
export const parseStoredResults = (json: string | null): ExperimentResults | null => parseStoredJson(ZExperimentResults, json);

export async function collectResults(db: Db, experimentId: string, experimentName: string, jobs: Map<StepName, StepJob>): Promise<ExperimentResults> {
  const job = (s: StepName) => {
    const j = jobs.get(s);
    if (!j) throw new Error(`step ${s} has no job`);
    return j;
  };
  const train = job("train");
  // Each read is a worker call (a process start here, a round trip over SSH): all at once,
  // since they are independent; serially they took seconds at the end of every chain.
  const [candidate, baseline, copied, training, leaderboard, featureImportance, featureSchema, exportJson, latency] = await Promise.all([
    readOutput(db, job("score_candidate"), "receipt.json", ZReceipt),
    readOutput(db, job("score_baseline"), "receipt.json", ZReceipt),
    keepExportArchive(db, job("package"), experimentId),
    readOutput(db, train, "training.json", ZTraining),
    readOptionalOutput(db, train, "leaderboard.json", ZLeaderboard),
    readOptionalOutput(db, train, "feature_importance.json", ZFeatureImportance),
    readOptionalOutput(db, train, "feature_schema.json", ZFeatureSchema),
    readOptionalOutput(db, job("package"), "export.json", ZExportSummary),
    readOptionalOutput(db, job("predict"), "latency.json", ZPredictLatency),
  ]);
  const usage: ExperimentResults["usage"] = {};
  for (const [step, j] of jobs) usage[step] = parseStoredJson(ZUsage, j.usage);
  return {
    candidate,
    baseline,
    comparison: compareReceipts(candidate, baseline),
    training,
    leaderboard,
    featureImportance,
    featureSchema,
    latency,
    usage,
    export: {
      sha256: copied.sha256,
      bytes: copied.bytes,
      modelSha256: train.outputSha256 ?? "",
      ...exportNames(exportJson, experimentName, copied.sha256),
    },
  };
}

/**
 * Copies a job's export.tar.gz into the controller's artifacts folder, verified against the
 * job's manifest, where exportArchivePath finds it by its SHA-256.
 */
export async function keepExportArchive(db: Db, job: StepJob, experimentId: string): Promise<{ sha256: string; bytes: number }> {
  const artifactsDir = homePaths(controllerRuntime().config.home).artifactsDir;
  const copied = await copyOutputFile(db, job, "export.tar.gz", path.join(artifactsDir, "incoming"), `${experimentId}.tar.gz`);
  const finalDir = path.join(artifactsDir, copied.sha256);
  await mkdir(finalDir, { recursive: true, mode: 0o700 });
  await rename(copied.file, path.join(finalDir, "export.tar.gz"));
  return { sha256: copied.sha256, bytes: copied.bytes };
}

/** Where the controller keeps an experiment's verified export archive. */
export function exportArchivePath(exportSha256: string): string {
  return path.join(homePaths(controllerRuntime().config.home).artifactsDir, exportSha256, "export.tar.gz");
}
