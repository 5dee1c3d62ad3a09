/**
 * Experiment status (DESIGN "Job lifecycle"; the table is contracts/lifecycles/experiment.ts):
 * `running` while any job of it is active or steps remain, then the first of failed,
 * cancelled, timed_out or unknown among its jobs, else succeeded. `experimentTransition`
 * is the only writer of the status: the row and its ExperimentTransition record change in
 * one transaction, and a move the table does not allow is refused (IllegalTransitionError).
 */
import { experimentLifecycle, type ExperimentStatus } from "@/contracts/lifecycles";
import type { Db } from "@/server/db/client";
import { publish } from "@/server/events/bus";
import { transition, type LifecycleStore } from "@/server/lifecycle/transition";

export { type ExperimentStatus };
export const EXPERIMENT_STATUSES = experimentLifecycle.states;
export const EXPERIMENT_TRANSITIONS = experimentLifecycle.transitions;

export const isExperimentTerminal = (s: string): boolean => experimentLifecycle.isTerminal(s);

/** The experiment's status from its jobs' states; `chainComplete` when every step succeeded. */
export function deriveStatus(jobStates: string[], chainComplete: boolean): ExperimentStatus {
  for (const bad of ["failed", "cancelled", "timed_out", "unknown"] as const) {
    if (jobStates.includes(bad)) return bad;
  }
  return chainComplete ? "succeeded" : "running";
}

/** Fields that may change together with the status. */
export interface ExperimentPatch {
  reason?: string | null;
  phase?: string;
  results?: string;
  exportSha256?: string;
  exportBytes?: bigint;
}

const experimentStore: LifecycleStore<ExperimentStatus, ExperimentPatch> = {
  lifecycle: experimentLifecycle,
  read: async (tx, id) => (await tx.experiment.findUnique({ where: { id }, select: { status: true } }))?.status ?? null,
  write: async (tx, id, { from, to, at }, patch) => {
    // An ended experiment is no longer doing anything: its progress note goes with it.
    const ending = isExperimentTerminal(to) ? { endedAt: at, progressNote: null } : {};
    const data = { ...patch, status: to, ...ending, revision: { increment: 1 } };
    return (await tx.experiment.updateMany({ where: { id, status: from }, data })).count;
  },
  record: async (tx, experimentId, { from, to, reason, at }) =>
    void (await tx.experimentTransition.create({ data: { experimentId, from, to, reason, at } })),
};

/**
 * Moves the experiment from the status the caller read (`exp.status`) to `to`; false when
 * it is already there or another writer moved it first.
 */
export async function experimentTransition(
  db: Db,
  exp: { id: string; projectId: string; status: string },
  to: ExperimentStatus,
  patch: ExperimentPatch = {},
): Promise<boolean> {
  const { changed } = await transition(db, experimentStore, exp.id, to, { from: exp.status, reason: patch.reason ?? null, patch });
  if (changed) publish({ type: "experiment.changed", experimentId: exp.id, projectId: exp.projectId, status: to });
  return changed;
}
