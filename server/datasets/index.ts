/**
 * Public API of datasets for other domains (the experiment chain):
 *
 *   const data = datasetsService();               // optional Db argument for tests
 *   const d = await data.requireReady(datasetId); // profiled dataset, or BAD_INPUT / CONFLICT
 *   d.snapshotRef     // "sha256:<snapshotSha256>": pass as a job input's `dataset`
 *   d.datasetFormat   // profile.tableFormat: pass as `datasetFormat`
 *   await data.get(datasetId)                      // the same view, any status (d.kind: "table" | "examples")
 *   const e = await data.requireReadyExamples(id)  // a JSONL file of examples, read by profile_examples
 *   e.examples                                     // its examples.json (formats, usable count, problems, preview)
 *   requireReady refuses an examples dataset, requireReadyExamples a table (BAD_INPUT, codes examples_dataset / table_dataset).
 *   const id = await data.recordSplit({ settings, jobId, outputSha256, contract });
 *   id                // SplitContract id of the split a chain's split step made (pin it on the experiment)
 *
 * `settings` is the data.split job's input (it names the snapshot); the same snapshot
 * and settings are one contract, whether the chain or the UI (startSplit) made it. On
 * This computer the snapshot is already in the worker's store; on a server, ensureBlobOn
 * copies it there (resumable, verified) before a job needs it.
 */
export { datasetsService } from "./datasets.service";
export { snapshotRef } from "./datasets.views";
export type { DatasetDetailView, DatasetView, SplitView, TEnsureSplitInput } from "./datasets.schema";
export type { TRecordSplitInput } from "./splits";
export { ensureBlobOn } from "./copies";
export { requireExamples, requireTable, storedKind, type DatasetKind } from "./dataset-kind";
