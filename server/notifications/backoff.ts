/**
 * When a failed delivery is tried again: 30 s, 2 min, 10 min, 1 h, 6 h after the first
 * five failures (from a base of 30 s; tests shorten the base with
 * TRAINYARD_NOTIFY_RETRY_MS), then never: six attempts in about 7 h 12 min, long enough to
 * ride out a receiver's restart or a night's outage, short enough that a stale alert is
 * not delivered a day late.
 */

/** Multiples of the base delay after the 1st, 2nd, … failed attempt. */
const STEPS = [1, 4, 20, 120, 720] as const;

/** The most attempts a delivery gets (the first one plus one per step). */
export const MAX_ATTEMPTS = STEPS.length + 1;

/** The delay before the next attempt after `attempts` failed ones, or null: give up. */
export function retryDelayMs(attempts: number, baseMs: number): number | null {
  const step = STEPS[attempts - 1];
  return step === undefined ? null : step * baseMs;
}
