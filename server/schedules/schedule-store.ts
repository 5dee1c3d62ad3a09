/**
 * A schedule's state moves through contracts/lifecycles scheduleLifecycle with the one
 * transition() (events in LifecycleEvent under "schedule"), its typed data beside it; every
 * committed move bumps the revision and is published (`schedule.changed`).
 */
import { scheduleLifecycle, ZScheduleFinished, type ScheduleState, type ScheduleStateData } from "@/contracts/lifecycles";
import type { Db } from "@/server/db/client";
import { parseStoredJson } from "@/server/db/stored-json";
import { publish } from "@/server/events/bus";
import { recordIn } from "@/server/lifecycle/events";
import { transition, type LifecycleStore, type TransitionResult } from "@/server/lifecycle/transition";

export interface SchedulePatch {
  nextSlotAt?: Date;
  pendingLatest?: boolean;
}

export const scheduleStore: LifecycleStore<ScheduleState, SchedulePatch> = {
  lifecycle: scheduleLifecycle,
  read: async (tx, id) => (await tx.schedule.findUnique({ where: { id }, select: { state: true } }))?.state ?? null,
  write: async (tx, id, move, patch) =>
    (
      await tx.schedule.updateMany({
        where: { id, state: move.from },
        data: { ...patch, state: move.to, reason: move.reason, stateData: move.data === null ? null : JSON.stringify(move.data), revision: { increment: 1 } },
      })
    ).count,
  record: recordIn(scheduleLifecycle.name),
};

type DataOf<T extends ScheduleState> = T extends keyof ScheduleStateData ? ScheduleStateData[T] : never;

export async function scheduleChanged(db: Db, id: string): Promise<void> {
  const s = await db.schedule.findUnique({ where: { id }, select: { projectId: true } });
  if (s) publish({ type: "schedule.changed", scheduleId: id, projectId: s.projectId });
}

export async function moveSchedule<T extends ScheduleState>(
  db: Db,
  id: string,
  to: T,
  move: { reason: string | null; data?: DataOf<T>; patch?: SchedulePatch; onlyFrom?: ScheduleState },
): Promise<TransitionResult<ScheduleState>> {
  const result = await transition(db, scheduleStore, id, to, {
    reason: move.reason,
    data: move.data,
    patch: move.patch,
    ...(move.onlyFrom ? { from: move.onlyFrom, illegal: "ignore" as const } : {}),
  });
  if (result.changed) await scheduleChanged(db, id);
  return result;
}

export function finishedCapOf(row: { state: string; stateData: string | null }): ScheduleStateData["finished"] | null {
  return row.state === "finished" ? parseStoredJson(ZScheduleFinished, row.stateData) : null;
}
