/**
 * A schedule's clock as slots in time. `every N minutes` counts from an anchor (when the
 * schedule was made or its clock last changed); `daily at HH:MM` is wall-clock time in a
 * named zone, computed by croner so that daylight saving moves the instant, not the hour.
 * No backlog: however many slots passed unseen (a server stopped for days), a tick runs
 * the latest one only and the next is the first after now.
 */
import { Cron } from "croner";
import type { ScheduleClock } from "@/contracts/schedules/schedules";

/** More missed slots than this are not walked one by one: the latest is found from the end. */
const MAX_WALK = 5000;

function cronOf(c: Extract<ScheduleClock, { kind: "daily" }>): Cron {
  const [hh, mm] = c.at.split(":").map(Number);
  return new Cron(`${mm} ${hh} * * ${c.weekdays ? "1-5" : "*"}`, { timezone: c.tz, paused: true });
}

/** The first slot strictly after `t`. */
export function slotAfter(clock: ScheduleClock, anchor: Date, t: Date): Date {
  if (clock.kind === "every") {
    const period = clock.minutes * 60_000;
    const k = Math.max(0, Math.floor((t.getTime() - anchor.getTime()) / period) + 1);
    return new Date(anchor.getTime() + k * period);
  }
  // croner returns null only for patterns that never match; HH:MM every day (or weekday) always does.
  return cronOf(clock).nextRun(t)!;
}

export interface Due {
  /** The slot this tick stands for (the latest passed), or null when none is due yet. */
  slot: Date | null;
  /** The next slot after now. */
  next: Date;
  /** How many slots passed unseen beside the one run (0 in the usual case). */
  skipped: number;
}

/** Whether the slot at `nextSlotAt` is due at `now`, and which slot a tick then stands for. */
export function dueAt(clock: ScheduleClock, anchor: Date, nextSlotAt: Date, now: Date): Due {
  if (nextSlotAt > now) return { slot: null, next: nextSlotAt, skipped: 0 };
  if (clock.kind === "every") {
    const next = slotAfter(clock, anchor, now);
    const slot = new Date(next.getTime() - clock.minutes * 60_000);
    return { slot, next, skipped: Math.max(0, Math.round((slot.getTime() - nextSlotAt.getTime()) / (clock.minutes * 60_000))) };
  }
  const cron = cronOf(clock);
  let slot = nextSlotAt;
  let skipped = 0;
  for (let n = cron.nextRun(slot); n && n <= now && skipped < MAX_WALK; n = cron.nextRun(slot)) {
    slot = n;
    skipped++;
  }
  return { slot, next: cron.nextRun(now)!, skipped };
}

/** The clock in words, for pages and the CLI. */
export function clockWords(clock: ScheduleClock): string {
  if (clock.kind === "every") {
    const m = clock.minutes;
    if (m % 1440 === 0) return m === 1440 ? "every day" : `every ${m / 1440} days`;
    if (m % 60 === 0) return m === 60 ? "every hour" : `every ${m / 60} hours`;
    return m === 1 ? "every minute" : `every ${m} minutes`;
  }
  return `${clock.weekdays ? "weekdays" : "daily"} at ${clock.at} (${clock.tz})`;
}

/** The latest slot at or before `now` (the anchor when none passed yet): the slot a "Run now" stands for. */
export function slotAtOrBefore(clock: ScheduleClock, anchor: Date, now: Date): Date {
  if (now < anchor) return anchor;
  if (clock.kind === "every") {
    const period = clock.minutes * 60_000;
    return new Date(anchor.getTime() + Math.floor((now.getTime() - anchor.getTime()) / period) * period);
  }
  // Every daily clock has a slot within a week: walk from eight days back.
  const cron = cronOf(clock);
  let found = anchor;
  for (let n = cron.nextRun(new Date(now.getTime() - 8 * 86_400_000)); n && n <= now; n = cron.nextRun(n)) if (n >= anchor) found = n;
  return found;
}
