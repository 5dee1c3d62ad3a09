/**
 * What an experiment shows when its chain is done: both receipts, the comparison, the
 * training leaderboard and feature information, resources per step, and the verified
 * export copied into the controller's artifacts folder. Read once, stored as JSON.
 */
import { mkdir, rename } from "node:fs/promises";
import path from "node:path";
import type { Db } from "@/server/db/client";
import { homePaths } from "@/server/config/home";
import { controllerRuntime } from "@/server/config/runtime";
import { compareReceipts, type Comparison, type ReceiptLike } from "./compare";
import type { TabularStep as StepName } from "./pipelines/tabular";
import type { StepJob } from "./chain-jobs";
import { copyOutputFile, readFinishedOutputJson, readOptionalOutputJson, readOutputJson } from "./job-outputs";
import { exportNames, type ExportNames } from "@/server/experiments/export-names";

export interface ExperimentResults {
  candidate: ReceiptLike & Record<string, unknown>;
  baseline: ReceiptLike & Record<string, unknown>;
  comparison: Comparison;
  training: Record<string, unknown> | null;
  leaderboard: unknown;
  featureImportance: unknown;
  featureSchema: unknown;
  usage: Partial<Record<StepName, unknown>>;
  /** Set when evaluation and export ran past the budget (chain-budget.ts budgetNote); the page shows it. */
  budgetNote?: string | null;
  /** fileName, folder and loadingCommands: what the download, the CLI and the model card call it. */
  export: { sha256: string; bytes: number; modelSha256: string } & ExportNames;
}

const parse = (s: string | null): unknown => {
  try {
    return s ? JSON.parse(s) : null;
  } catch {
    return null;
  }
};

export async function collectResults(db: Db, experimentId: string, experimentName: string, jobs: Map<StepName, StepJob>): Promise<ExperimentResults> {
  const job = (s: StepName) => {
    const j = jobs.get(s);
    if (!j) throw new Error(`step ${s} has no job`);
    return j;
  };
  const train = job("train");
  const artifactsDir = path.join(homePaths(controllerRuntime().config.home).artifactsDir);
  // Each read is a worker call (a process start here, a round trip over SSH): all at once,
  // since they are independent; serially they took seconds at the end of every chain.
  const [candidate, baseline, copied, training, leaderboard, featureImportance, featureSchema, exportJson] = await Promise.all([
    readOutputJson<ExperimentResults["candidate"]>(db, job("score_candidate"), "receipt.json"),
    readOutputJson<ExperimentResults["baseline"]>(db, job("score_baseline"), "receipt.json"),
    copyOutputFile(db, job("package"), "export.tar.gz", path.join(artifactsDir, "incoming"), `${experimentId}.tar.gz`),
    readFinishedOutputJson<Record<string, unknown>>(db, train, "training.json"),
    readOptionalOutputJson(db, train, "leaderboard.json"),
    readOptionalOutputJson(db, train, "feature_importance.json"),
    readOptionalOutputJson(db, train, "feature_schema.json"),
    readOptionalOutputJson(db, job("package"), "export.json"),
  ]);
  const finalDir = path.join(artifactsDir, copied.sha256);
  await mkdir(finalDir, { recursive: true, mode: 0o700 });
  await rename(copied.file, path.join(finalDir, "export.tar.gz"));
  const usage: Partial<Record<StepName, unknown>> = {};
  for (const [step, j] of jobs) usage[step] = parse(j.usage);
  return {
    candidate,
    baseline,
    comparison: compareReceipts(candidate, baseline),
    training,
    leaderboard,
    featureImportance,
    featureSchema,
    usage,
    export: {
      sha256: copied.sha256,
      bytes: copied.bytes,
      modelSha256: train.outputSha256 ?? "",
      ...exportNames(exportJson, experimentName, copied.sha256),
    },
  };
}

/** Where the controller keeps an experiment's verified export archive. */
export function exportArchivePath(exportSha256: string): string {
  return path.join(homePaths(controllerRuntime().config.home).artifactsDir, exportSha256, "export.tar.gz");
}
