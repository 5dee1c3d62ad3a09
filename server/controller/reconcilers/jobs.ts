/**
 * Jobs: each computer with active jobs is a row; advancing it asks its worker what became
 * of them (server/jobs/reconcile.ts). This computer's receipts folder is watched
 * (receipts-watch.ts) so a job that ends is recorded in milliseconds, not at the sweep.
 */
import type { Db } from "@/server/db/client";
import { jobsRepository } from "@/server/jobs/jobs.repository";
import { reconcileTarget, type ReconcileOptions } from "@/server/jobs/reconcile";
import { defineReconciler } from "../define-reconciler";

export const JOBS_RECONCILER = "jobs";

export const jobs = (db: Db, everyMs: number, opts: ReconcileOptions) =>
  defineReconciler({
    name: JOBS_RECONCILER,
    everyMs,
    active: () => jobsRepository(db).targetsWithActiveJobs(),
    advance: async (targetId) => {
      await reconcileTarget(db, targetId, opts);
    },
  });
