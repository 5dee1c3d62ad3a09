/**
 * The clock as a form holds it (strings, as typed) and its conversion to and from the
 * contract's ZScheduleClock. The server validates again; this only turns "every 6 hours"
 * into minutes and says in words what cannot be sent at all.
 */
import type { ScheduleClock } from "@/contracts/schedules/schedules";

export interface ClockDraft {
  kind: "every" | "daily";
  every: string;
  unit: "hours" | "minutes";
  at: string;
  tz: string;
  weekdays: boolean;
}

export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}

export function newClockDraft(tz: string): ClockDraft {
  return { kind: "every", every: "6", unit: "hours", at: "09:00", tz, weekdays: false };
}

export function draftOfClock(clock: ScheduleClock, tz: string): ClockDraft {
  if (clock.kind === "daily") return { ...newClockDraft(clock.tz), kind: "daily", at: clock.at, weekdays: clock.weekdays };
  const hours = clock.minutes % 60 === 0;
  return { ...newClockDraft(tz), every: String(hours ? clock.minutes / 60 : clock.minutes), unit: hours ? "hours" : "minutes" };
}

/** The clock to send, or what is wrong with the draft in words. */
export function clockOfDraft(d: ClockDraft): { clock: ScheduleClock } | { error: string } {
  if (d.kind === "daily") return { clock: { kind: "daily", at: d.at, tz: d.tz, weekdays: d.weekdays } };
  const n = Number(d.every);
  if (!d.every.trim() || !Number.isFinite(n) || n <= 0) return { error: `Give how often as a number of ${d.unit} above 0.` };
  const minutes = d.unit === "hours" ? n * 60 : n;
  if (!Number.isInteger(minutes)) return { error: "Give how often in whole minutes." };
  return { clock: { kind: "every", minutes } };
}

/** Every IANA zone the browser knows, with `current` and UTC among them. */
export function timeZones(current: string): string[] {
  const known = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return [...new Set([current, "UTC", ...known])].sort((a, b) => a.localeCompare(b));
}
