/**
 * Experiment status (DESIGN "Job lifecycle"): `running` while any job of it is active or
 * steps remain, then the first of failed, cancelled, timed_out or unknown among its
 * jobs, else succeeded. `unknown` is not terminal: it follows its jobs when they
 * reconcile. One transition table; `experimentTransition` is the only writer.
 */
import type { Db } from "@/server/db/client";
import { publish } from "@/server/events/bus";

export const EXPERIMENT_STATUSES = ["running", "succeeded", "failed", "cancelled", "timed_out", "unknown"] as const;
export type ExperimentStatus = (typeof EXPERIMENT_STATUSES)[number];

export const EXPERIMENT_TRANSITIONS: Record<ExperimentStatus, readonly ExperimentStatus[]> = {
  running: ["succeeded", "failed", "cancelled", "timed_out", "unknown"],
  unknown: ["running", "succeeded", "failed", "cancelled", "timed_out"],
  succeeded: [],
  failed: [],
  cancelled: [],
  timed_out: [],
};

export const isExperimentTerminal = (s: string) => ["succeeded", "failed", "cancelled", "timed_out"].includes(s);

/** The experiment's status from its jobs' states; `chainComplete` when every step succeeded. */
export function deriveStatus(jobStates: string[], chainComplete: boolean): ExperimentStatus {
  for (const bad of ["failed", "cancelled", "timed_out", "unknown"] as const) {
    if (jobStates.includes(bad)) return bad;
  }
  return chainComplete ? "succeeded" : "running";
}

export async function experimentTransition(
  db: Db,
  exp: { id: string; projectId: string; status: string },
  to: ExperimentStatus,
  patch: { reason?: string | null; phase?: string; results?: string; exportSha256?: string; exportBytes?: bigint } = {},
): Promise<boolean> {
  const from = exp.status as ExperimentStatus;
  if (from === to) return false;
  if (!EXPERIMENT_TRANSITIONS[from]?.includes(to)) {
    throw new Error(`experiment ${exp.id}: transition ${from} → ${to} is not allowed`);
  }
  const terminal = isExperimentTerminal(to);
  const { count } = await db.experiment.updateMany({
    where: { id: exp.id, status: from },
    data: { status: to, ...patch, ...(terminal ? { endedAt: new Date() } : {}), revision: { increment: 1 } },
  });
  if (count) {
    await db.experimentTransition.create({ data: { experimentId: exp.id, from, to, reason: patch.reason ?? null } });
  }
  if (count) publish({ type: "experiment.changed", experimentId: exp.id, projectId: exp.projectId, status: to });
  return count > 0;
}
