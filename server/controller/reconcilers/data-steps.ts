/**
 * Data steps: a dataset's profile, a target column's checks and a split, each a row that
 * waits for its job. The change of that job settles its row at once (reads the output, or
 * the failure, into it); the sweep settles every waiting row, which starts a job not
 * started yet (its environment was being built) and resumes after a restart.
 */
import type { Db } from "@/server/db/client";
import { dataStepOfJob, settleDataStep, waitingDataSteps } from "@/server/datasets/settle";
import { defineReconciler } from "../define-reconciler";

export const dataSteps = (db: Db, everyMs = 3000) =>
  defineReconciler({
    name: "data steps",
    everyMs,
    active: () => waitingDataSteps(db),
    advance: (key) => settleDataStep(db, key),
    wakeOn: (e) => (e.event.type === "job.changed" ? dataStepOfJob(db, e.event.jobId) : null),
  });
