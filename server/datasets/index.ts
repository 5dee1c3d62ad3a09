/**
 * Public API of datasets for other domains (the experiment chain):
 *
 *   const data = datasetsService();               // optional Db argument for tests
 *   const d = await data.requireReady(datasetId); // profiled dataset, or BAD_INPUT / CONFLICT
 *   d.snapshotRef     // "sha256:<snapshotSha256>": pass as a job input's `dataset`
 *   d.datasetFormat   // profile.tableFormat: pass as `datasetFormat`
 *   await data.get(datasetId)                      // the same view, any status
 *   const split = await data.ensureSplit({ datasetId, target, task, strategy, seed, groupColumn?, timeColumn?, fractions? });
 *   split.id          // SplitContract id (pin it on the experiment)
 *   split.contract    // split.json as written by data.split
 *   split.splitRef    // "sha256:<split job output hash>": pass as data.features' `split`
 *
 * ensureSplit waits (first use may build the data tools' environment); the same
 * snapshot and settings return the same contract without a new job. On This computer
 * the snapshot is already in the worker's store; on a server, ensureBlobOn copies it
 * there (resumable, verified) before a job needs it.
 */
export { datasetsService } from "./datasets.service";
export { snapshotRef } from "./datasets.views";
export type { DatasetDetailView, DatasetView, SplitView, TEnsureSplitInput } from "./datasets.schema";
export { ensureBlobOn } from "./copies";
