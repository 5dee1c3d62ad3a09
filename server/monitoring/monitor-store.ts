/**
 * A monitor's state moves through contracts/lifecycles monitorLifecycle with the one
 * transition() (events in LifecycleEvent under "monitor"); its state's data is stored
 * typed beside it. Every committed move is published (`monitor.changed`) and makes the
 * request path read its release's watchers again.
 */
import { monitorLifecycle, ZMonitorFailed, type MonitorState, type MonitorStateData } from "@/contracts/lifecycles";
import type { Db } from "@/server/db/client";
import { parseStoredJson } from "@/server/db/stored-json";
import { publish } from "@/server/events/bus";
import { recordIn } from "@/server/lifecycle/events";
import { transition, type LifecycleStore, type TransitionResult } from "@/server/lifecycle/transition";
import { forgetWatchers } from "./window-counts";

export interface MonitorPatch {
  reference?: string;
}

export const monitorStore: LifecycleStore<MonitorState, MonitorPatch> = {
  lifecycle: monitorLifecycle,
  read: async (tx, id) => (await tx.monitor.findUnique({ where: { id }, select: { state: true } }))?.state ?? null,
  write: async (tx, id, move, patch) =>
    (await tx.monitor.updateMany({ where: { id, state: move.from }, data: { ...patch, state: move.to, reason: move.reason, stateData: move.data === null ? null : JSON.stringify(move.data) } })).count,
  record: recordIn(monitorLifecycle.name),
};

type DataOf<T extends MonitorState> = T extends keyof MonitorStateData ? MonitorStateData[T] : never;

/** Tells the pages that a monitor changed (moved, or judged a window). */
export async function monitorChanged(db: Db, id: string): Promise<void> {
  const m = await db.monitor.findUnique({ where: { id }, select: { projectId: true, deploymentId: true, releaseId: true } });
  if (!m) return;
  forgetWatchers(db, m.releaseId);
  publish({ type: "monitor.changed", monitorId: id, deploymentId: m.deploymentId, projectId: m.projectId });
}

export async function moveMonitor<T extends MonitorState>(
  db: Db,
  id: string,
  to: T,
  move: { reason: string | null; data?: DataOf<T>; patch?: MonitorPatch; onlyFrom?: MonitorState },
): Promise<TransitionResult<MonitorState>> {
  const result = await transition(db, monitorStore, id, to, {
    reason: move.reason,
    data: move.data,
    patch: move.patch,
    ...(move.onlyFrom ? { from: move.onlyFrom, illegal: "ignore" as const } : {}),
  });
  if (result.changed) await monitorChanged(db, id);
  return result;
}

const DATA_SCHEMAS = { failed: ZMonitorFailed } as const;

export function monitorDataOf<T extends keyof MonitorStateData>(row: { state: string; stateData: string | null }, state: T): MonitorStateData[T] | null {
  if (row.state !== state) return null;
  return parseStoredJson(DATA_SCHEMAS[state], row.stateData) as MonitorStateData[T] | null;
}
