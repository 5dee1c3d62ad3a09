/**
 * A schedule's lifetime caps: runs started and budget minutes spent. Reaching one moves
 * the schedule to `finished` (the owner raises the cap to go on) and tells the owner once
 * per time it is reached: the notification's id names the revision that reached it.
 */
import type { Db } from "@/server/db/client";
import { notify } from "@/server/notifications/notify";
import { schedulesRepository, type ScheduleRow } from "./schedules.repository";
import { moveSchedule } from "./schedule-store";

export interface Cap {
  cap: "runs" | "compute_minutes";
  words: string;
}

/** The cap another run of `minutes` would pass, or null. */
export async function capReached(db: Db, s: ScheduleRow, minutes: number): Promise<Cap | null> {
  const started = await schedulesRepository(db).started(s.id);
  if (s.maxRuns !== null && started.length >= s.maxRuns) {
    return { cap: "runs", words: `The schedule reached its cap of ${s.maxRuns} run${s.maxRuns === 1 ? "" : "s"}; raise it to go on.` };
  }
  const used = started.reduce((sum, r) => sum + (r.budgetMinutes ?? 0), 0);
  if (s.maxComputeMinutes !== null && used + minutes > s.maxComputeMinutes) {
    return {
      cap: "compute_minutes",
      words: `Another run's ${minutes} min would pass the cap of ${s.maxComputeMinutes} compute minutes (${used} used); raise it to go on.`,
    };
  }
  return null;
}

/** Stops the schedule at a cap and says so, once. */
export async function finishAtCap(db: Db, s: ScheduleRow, cap: Cap): Promise<void> {
  const moved = await moveSchedule(db, s.id, "finished", { reason: cap.words, data: { cap: cap.cap }, onlyFrom: s.state as "active" | "paused" });
  if (!moved.changed) return;
  await notify(db, {
    id: `schedule:${s.id}:cap:${s.revision}`,
    kind: "cap_reached",
    projectId: s.projectId,
    title: `Schedule "${s.name}" stopped at its cap`,
    body: cap.words,
    link: `/projects/${s.projectId}/ml/schedules`,
  });
}
