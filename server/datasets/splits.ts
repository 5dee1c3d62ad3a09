/**
 * Split contracts: the same snapshot with the same settings (target, task, strategy,
 * seed, columns, fractions, table format) is one SplitContract row, whoever made the
 * split. `startSplit` starts a data.split job for the UI and returns at once (settle.ts
 * folds the job into the row); `recordSplit` records the split an experiment's chain
 * made with its own step, so the experiment can pin the contract it was trained on.
 */
import { z } from "zod";
import { ZSplitContract, ZSplitInput } from "@/contracts/recipes";
import type { Db } from "@/server/db/client";
import { badInput } from "@/server/errors";
import { intentHash } from "@/server/jobs/intent-hash";
import { datasetsRepository, type SplitRow } from "./datasets.repository";
import { ZEnsureSplitInput, type DatasetDetailView, type SetupProgress, type SplitView, type TEnsureSplitInput } from "./datasets.schema";
import { snapshotRef, storedSplitContract, storedSplitSettings } from "./datasets.views";
import { settleSplit } from "./settle";

function toSplitView(s: SplitRow): SplitView {
  return {
    id: s.id,
    status: s.status as SplitView["status"],
    error: s.error,
    jobId: s.jobId,
    settings: storedSplitSettings(s.settings),
    contract: storedSplitContract(s.contract),
    splitRef: s.outputSha256 ? `sha256:${s.outputSha256}` : null,
    outputSha256: s.outputSha256,
  };
}

/** Starts (or reuses) the split of a profiled dataset; `dataset` is the service's requireReady view of input.datasetId. */
export async function startSplit(
  db: Db,
  dataset: DatasetDetailView & { datasetFormat: Record<string, unknown> },
  raw: TEnsureSplitInput,
): Promise<SplitView & { setup: SetupProgress | null }> {
  const input = ZEnsureSplitInput.parse(raw);
  const repo = datasetsRepository(db);
  const d = dataset;
  const names = new Set(d.columns.map((c) => c.name));
  for (const col of [input.target, input.groupColumn, input.timeColumn]) {
    if (col !== undefined && !names.has(col)) throw badInput(`${d.name} has no column "${col}".`, { code: "unknown_column" });
  }
  const jobInput = {
    dataset: snapshotRef(d.snapshotSha256),
    datasetFormat: d.datasetFormat,
    snapshotSha256: d.snapshotSha256,
    target: input.target,
    task: input.task,
    strategy: input.strategy,
    seed: input.seed,
    ...(input.groupColumn ? { groupColumn: input.groupColumn } : {}),
    ...(input.timeColumn ? { timeColumn: input.timeColumn } : {}),
    ...(input.fractions ? { fractions: input.fractions } : {}),
  };
  let row = await repo.splits.ensure(d.snapshotSha256, intentHash(jobInput), JSON.stringify(jobInput));
  if (row.status === "failed") row = await repo.splits.rerun(row.id);
  const setup = await settleSplit(db, row);
  return { ...toSplitView((await repo.splits.findById(row.id))!), setup };
}

export const ZRecordSplitInput = z.strictObject({
  /** The data.split job's input as it ran: the settings the contract is keyed by (hashed like startSplit's). */
  settings: z.record(z.string(), z.unknown()),
  /** The succeeded split job and its output manifest's SHA-256. */
  jobId: z.string().min(1),
  outputSha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** split.json as the job wrote it. */
  contract: ZSplitContract,
});
export type TRecordSplitInput = z.input<typeof ZRecordSplitInput>;

/**
 * Records a split that a succeeded job made (the experiment chain's split step) and
 * returns its SplitContract id. A contract already ready for the same settings stays as
 * it is (the two jobs made the same split: same snapshot, settings and seed); a running
 * or failed one becomes this ready one.
 */
export async function recordSplit(db: Db, raw: TRecordSplitInput): Promise<string> {
  const input = ZRecordSplitInput.parse(raw);
  const repo = datasetsRepository(db);
  // Checked as a data.split input, but hashed and stored as it ran: parsing adds defaults.
  const snapshot = ZSplitInput.parse(input.settings).snapshotSha256.replace(/^sha256:/, "");
  const row = await repo.splits.ensure(snapshot, intentHash(input.settings), JSON.stringify(input.settings));
  if (row.status === "ready") return row.id;
  await repo.splits.markReady(row.id, { jobId: input.jobId, outputSha256: input.outputSha256, contract: JSON.stringify(input.contract) });
  return row.id;
}
