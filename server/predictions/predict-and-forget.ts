/**
 * A prediction for a deployment's request, keeping nothing of it: the rows are staged and
 * predicted like any predict job (predict-job.ts), and once the answer is read the job's
 * folder (its copy of the rows, joined.csv, predictions.parquet) and the rows' blob are
 * removed on the computer that ran it and on This computer, which staged them. The job's
 * receipt and row stay, without data. Two requests with the same rows share one blob: it
 * goes with the last of them.
 *
 * Limit: a job still running when its request gave up (a time-out cancels it) keeps its
 * folder until the worker's ordinary gc; the log says which.
 */
import { createHash } from "node:crypto";
import type { Db } from "@/server/db/client";
import { localTarget } from "@/server/datasets/local-store";
import { jobsService } from "@/server/jobs/jobs.service";
import { targetFor } from "@/server/targets/target-for";
import { targetsService } from "@/server/targets/targets.service";
import { runPredictJob, stageBytes, type PredictOutcome } from "./predict-job";

const rowsInFlight = new Map<string, number>();

function hold(sha256: string): void {
  rowsInFlight.set(sha256, (rowsInFlight.get(sha256) ?? 0) + 1);
}

/** True when no other request still needs the blob. */
function release(sha256: string): boolean {
  const left = (rowsInFlight.get(sha256) ?? 1) - 1;
  if (left > 0) rowsInFlight.set(sha256, left);
  else rowsInFlight.delete(sha256);
  return left <= 0;
}

async function forget(db: Db, targetId: string, jobId: string | null, sha256: string | null): Promise<void> {
  const row = await targetsService(db).requireTarget(targetId);
  const workerJobId = jobId ? (await jobsService(db).get(jobId)).workerJobId : null;
  await targetFor(row, db).forgetRequest(workerJobId ? [workerJobId] : [], sha256 ? [sha256] : []);
  const local = await localTarget(db);
  if (sha256 && local.id !== row.id) await targetFor(local, db).forgetRequest([], [sha256]);
}

export async function predictAndForget(
  db: Db,
  a: { targetId: string; modelSha256: string; csv: Buffer; timeoutMs: number; label: string },
): Promise<PredictOutcome> {
  const sha256 = createHash("sha256").update(a.csv).digest("hex");
  hold(sha256);
  let jobId: string | null = null;
  try {
    await stageBytes(db, a.csv, "the rows to predict");
    return await runPredictJob(db, { ...a, featuresSha256: sha256, onAdmitted: (id) => (jobId = id) });
  } finally {
    const last = release(sha256);
    // The answer stands whatever happens here; a failure to clean up is said in the server log.
    await forget(db, a.targetId, jobId, last ? sha256 : null).catch((err: unknown) => {
      console.warn(`trainyard: could not remove the data of prediction job ${jobId ?? "(not admitted)"}: ${(err as Error).message}`);
    });
  }
}
