/**
 * One step of one schedule, called by its reconciler (and after every restart, from the
 * database alone). In order: a run being admitted goes on (one at a time); a started run
 * that ended gets its result; then, if a slot is due, the tick decides — an active run
 * coalesces it into one pending "latest data" run, a cap finishes the schedule, otherwise
 * a run is admitted. Missed slots collapse into one (slots.ts). Each admission is one row
 * whose (schedule, tickKey) is unique, written with the schedule's next slot in one
 * transaction guarded by the slot it read: two ticks of one slot cannot both admit.
 */
import { ZScheduleClock, ZScheduleSpec, type RunTrigger } from "@/contracts/schedules/schedules";
import type { Db } from "@/server/db/client";
import { notify } from "@/server/notifications/notify";
import { budgetMinutesOf } from "./admission";
import { advanceAdmission } from "./admit-run";
import { capReached, finishAtCap } from "./caps";
import { scheduleNow } from "./clock";
import { followRun } from "./run-result";
import { scheduleChanged } from "./schedule-store";
import { schedulesRepository, type ScheduleRow } from "./schedules.repository";
import { dueAt } from "./slots";

export async function advanceSchedule(db: Db, id: string): Promise<void> {
  const repo = schedulesRepository(db);
  const s = await repo.find(id);
  if (!s) return;
  const admitting = await repo.admitting(id);
  if (admitting) {
    // Told when the step or its words moved: a run that only waits again changes nothing (and wakes nothing).
    const said = (r: { step: string | null; reason: string | null } | null) => `${r?.step}:${r?.reason}`;
    const decided = await advanceAdmission(db, s, admitting);
    if (decided || said(await repo.run(admitting.id)) !== said(admitting)) await scheduleChanged(db, id);
    if (decided) await afterDecision(db, s);
    return;
  }
  const busy = await activeRunSeq(db, s);
  if (s.state !== "active") return;
  const now = scheduleNow();
  const clock = ZScheduleClock.parse(JSON.parse(s.clock));
  const due = dueAt(clock, s.createdAt, s.nextSlotAt, now);
  if (due.slot) {
    const tickKey = `clock:${due.slot.toISOString()}`;
    const missed = due.skipped ? ` (${due.skipped} earlier slot${due.skipped === 1 ? "" : "s"} passed while the server was stopped: one run stands for them)` : "";
    if (busy !== null) {
      await admit(db, s, { trigger: "clock", tickKey, slotAt: due.slot, next: due.next, outcome: "coalesced", reason: `Run ${busy} is still training: one run on the latest data follows it${missed}.` });
      return;
    }
    const cap = await capReached(db, s, budgetMinutesOf(ZScheduleSpec.parse(JSON.parse(s.spec))));
    if (cap) return finishAtCap(db, s, cap);
    // Straight on with the run it admitted (another advance of this row is single-flight behind this one).
    if (await admit(db, s, { trigger: "clock", tickKey, slotAt: due.slot, next: due.next, outcome: "admitting", reason: missed ? `Due${missed}.` : null })) return advanceSchedule(db, id);
    return;
  }
  if (s.pendingLatest && busy === null) {
    const last = await repo.lastStarted(id);
    if (await admit(db, s, { trigger: "latest", tickKey: `latest:after-${last?.seq ?? 0}`, slotAt: now, next: s.nextSlotAt, outcome: "admitting", reason: null })) return advanceSchedule(db, id);
  }
}

/** The seq of the started run still training, or null; a run that ended gets its result here. */
export async function activeRunSeq(db: Db, s: ScheduleRow): Promise<number | null> {
  const last = await schedulesRepository(db).lastStarted(s.id);
  if (!last) return null;
  return (await followRun(db, s, last)) === "running" ? last.seq : null;
}

/** A refused admission is news; a no-op is not. */
async function afterDecision(db: Db, s: ScheduleRow): Promise<void> {
  const runs = await schedulesRepository(db).runs(s.id);
  const last = runs[runs.length - 1];
  if (last?.outcome !== "refused") return;
  await notify(db, {
    id: `schedule-run:${last.id}:refused`,
    kind: "run_failed",
    projectId: s.projectId,
    title: `Schedule "${s.name}": run ${last.seq} could not start`,
    body: last.reason ?? "refused",
    link: `/projects/${s.projectId}/ml/schedules`,
  });
}

interface Admission {
  trigger: RunTrigger;
  tickKey: string;
  slotAt: Date;
  /** The schedule's next slot after this tick. */
  next: Date;
  outcome: "admitting" | "coalesced";
  reason: string | null;
}

/** Records the tick's run and moves the schedule on, at once; false when another tick of this slot won. */
export async function admit(db: Db, s: ScheduleRow, a: Admission): Promise<boolean> {
  const repo = schedulesRepository(db);
  const next = { nextSlotAt: a.next, pendingLatest: a.outcome === "coalesced" };
  const run = { trigger: a.trigger, tickKey: a.tickKey, slotAt: a.slotAt, outcome: a.outcome, step: a.outcome === "admitting" ? "observing" : null, reason: a.reason };
  try {
    const admitted = await repo.recordTick(s, next, run);
    if (admitted) await scheduleChanged(db, s.id);
    return admitted;
  } catch (err) {
    if ((err as { code?: string }).code !== "P2002") throw err;
    // This tick was recorded before (a clock set back, an edit that chose a slot that already
    // ran): the schedule still moves on, or it would meet the same slot at every sweep.
    await repo.recordTick(s, { ...next, pendingLatest: false }, null);
    return false;
  }
}
