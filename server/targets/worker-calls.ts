/**
 * The part of a Target that is the same on every computer: worker requests through
 * `execOn` (which records reachability), and removing blobs and an answered request's job
 * folders through the worker's `gc`.
 */
import { WORKER_PROTOCOL, type TWorkerRequest, type WorkerOp } from "@/contracts/worker";
import type { Db } from "@/server/db/client";
import type { BlobRemoval, RequestBody, Target } from "./target";
import { targetsService } from "./targets.service";
import type { TargetRow } from "./targets.repository";
import { WorkerProtocolError, type ResponseOf } from "./transport";

// A worker older than the `blobs` field would ignore it and run an ordinary gc: this age
// keeps that gc from collecting any job folder, and its answer (no `named`) is refused below.
const NOTHING_ELSE_DAYS = 36_500;

export function workerCalls(row: TargetRow, db: Db): Pick<Target, "exec" | "removeBlobs" | "forgetRequest" | "removeStaleParts"> {
  async function exec<O extends WorkerOp>(op: O, body: RequestBody<O>): Promise<ResponseOf<O>> {
    const request = { protocol: WORKER_PROTOCOL, op, ...body } as TWorkerRequest;
    return (await targetsService(db).execOn(row, request)) as ResponseOf<O>;
  }

  async function removeBlobs(sha256s: string[]): Promise<BlobRemoval[]> {
    if (sha256s.length === 0) return [];
    const res = await exec("gc", { dryRun: false, olderThanDays: NOTHING_ELSE_DAYS, blobs: sha256s });
    if (!res.named) throw new WorkerProtocolError(`the worker on ${row.name} cannot remove named blobs; update it (Set up) and delete again`);
    return res.named;
  }

  async function forgetRequest(jobIds: string[], sha256s: string[]): Promise<void> {
    if (!jobIds.length && !sha256s.length) return;
    await exec("gc", { dryRun: false, olderThanDays: NOTHING_ELSE_DAYS, ...(jobIds.length ? { jobIds } : {}), ...(sha256s.length ? { blobs: sha256s } : {}) });
  }

  // An ordinary gc at this age collects no job folder and no store blob: only parts a day old.
  const removeStaleParts = async () => (await exec("gc", { dryRun: false, olderThanDays: NOTHING_ELSE_DAYS, includeStore: false })).incoming;

  return { exec, removeBlobs, forgetRequest, removeStaleParts };
}
