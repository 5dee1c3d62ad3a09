/**
 * A monitor's reference: the data.reference job bins the training partition of its
 * release's version (the same snapshot and split the version was trained on, held by This
 * computer, where data steps run) into frozen bins per input column. Only the bins are
 * kept. A version whose split or snapshot is gone cannot have one: the monitor says why.
 */
import type { ReferenceColumn, ReferenceJobInput } from "@/contracts/recipes/data";
import type { FeatureSchemaEntry } from "@/contracts/recipes/tabular";
import { ZReference } from "@/contracts/recipes/data";
import { ZTableFormat } from "@/contracts/recipes/common";
import type { Db } from "@/server/db/client";
import { parseStoredJson } from "@/server/db/stored-json";
import { jobError, startDataJob, type DataJobStart } from "@/server/datasets/data-jobs";
import { localTarget } from "@/server/datasets/local-store";
import { snapshotRef } from "@/server/datasets/datasets.views";
import { DomainError } from "@/server/errors";
import { isTerminal } from "@/server/jobs/job-state";
import { jobsService } from "@/server/jobs/jobs.service";
import { readOutput } from "@/server/jobs/read-output";
import { servingOfVersion } from "@/server/registry/version-serving";
import { moveMonitor } from "./monitor-store";
import { deploymentsRepository } from "@/server/deployments/deployments.repository";

type Refusal = { code: string; message: string };

/** How a feature is binned: text and dates are not watched. */
const binnedAs = (kind: FeatureSchemaEntry["kind"]): ReferenceColumn["kind"] | null =>
  kind === "numeric" ? "numeric" : kind === "categorical" || kind === "boolean" ? "categorical" : null;

/** The job's input, or why this version cannot have a reference. */
export async function referenceInput(db: Db, releaseId: string): Promise<ReferenceJobInput | Refusal> {
  const release = await deploymentsRepository(db).releaseOrThrow(releaseId);
  const version = await deploymentsRepository(db).versionOrThrow(release.versionId);
  const features = (await servingOfVersion(db, version)).featureSchema?.features ?? [];
  const columns = features.flatMap((f) => {
    const kind = binnedAs(f.kind);
    return kind ? [{ name: f.name, kind }] : [];
  });
  if (!columns.length) return { code: "no_columns", message: `Version ${version.number} has no numeric or categorical input column to watch.` };
  const split = version.splitContractId ? await db.splitContract.findUnique({ where: { id: version.splitContractId } }) : null;
  if (!split?.outputSha256) return { code: "no_training_split", message: `The split version ${version.number} was trained on is not recorded, so its training rows cannot be read.` };
  const snapshot = await db.snapshot.findUnique({ where: { sha256: version.snapshotSha256 } });
  const format = parseStoredJson(ZTableFormat, snapshot?.format ?? null);
  if (!format) return { code: "no_training_data", message: `The data version ${version.number} was trained on is no longer described on this computer.` };
  return { dataset: snapshotRef(version.snapshotSha256), datasetFormat: format, split: `sha256:${split.outputSha256}`, partition: "train", columns };
}

async function startJob(db: Db, monitorId: string, input: ReferenceJobInput): Promise<DataJobStart | Refusal> {
  try {
    return await startDataJob(db, (await localTarget(db)).id, "reference", input, `monitor-${monitorId}`);
  } catch (err) {
    // The data tools could not be set up: a refusal the owner sees. A worker that did not answer is retried on the next pass.
    if (err instanceof DomainError && err.details?.setupJobId) return { code: "setup_failed", message: err.message };
    throw err;
  }
}

/** One step of a preparing monitor: start its job (or the environment it waits for), or settle it. */
export async function advancePreparing(db: Db, monitor: { id: string; releaseId: string }): Promise<void> {
  const fail = (r: Refusal) => moveMonitor(db, monitor.id, "failed", { reason: r.message, data: { code: r.code }, onlyFrom: "preparing" });
  const input = await referenceInput(db, monitor.releaseId);
  if ("code" in input) return void (await fail(input));
  const start = await startJob(db, monitor.id, input);
  if ("code" in start) return void (await fail(start));
  if (start.kind === "setup" || !isTerminal(start.job.state)) return;
  const job = await jobsService(db).get(start.job.id);
  if (job.state !== "succeeded") {
    const e = jobError(job);
    return void (await fail({ code: e.code, message: `The reference could not be made: ${e.message}` }));
  }
  const reference = await readOutput(db, job, "reference.json", ZReference);
  await moveMonitor(db, monitor.id, "watching", { reason: `reference: ${reference.rows} training rows, ${reference.columns.length} columns`, patch: { reference: JSON.stringify(reference) }, onlyFrom: "preparing" });
}

export const referenceOf = (row: { reference: string | null }) => parseStoredJson(ZReference, row.reference);
