/** Polling helpers for the CLI: wait for a condition, across server restarts. */
import { withRetry } from "../api-client";

// Polls come every FAST_POLL_MS for the first FAST_WINDOW_MS of a wait, and again after
// each change the caller can see (a new step): a profile, the checks and each step after
// training take about a second, and a poll that comes 0.4 s late is 0.4 s the user waits.
// Then they slow down to `everyMs`, so a long wait costs the server few requests.
export const FAST_POLL_MS = 200;
export const FAST_WINDOW_MS = 5_000;

/** The wait before the next poll, `sinceChangeMs` after the start or the last change. */
export function nextPollDelay(previousMs: number, sinceChangeMs: number, everyMs: number): number {
  if (sinceChangeMs < FAST_WINDOW_MS) return Math.min(FAST_POLL_MS, everyMs);
  return Math.min(everyMs, Math.round(Math.max(previousMs, FAST_POLL_MS) * 1.5));
}

export async function waitUntil<T>(
  read: () => Promise<T>,
  done: (v: T) => boolean,
  opts: {
    everyMs?: number;
    timeoutMs?: number;
    onTick?: (v: T) => void;
    onWait?: (m: string) => void;
    /** What counts as a change that brings the quick polls back (e.g. the current step). */
    changeKey?: (v: T) => string;
    what: string;
  },
): Promise<T> {
  const deadline = Date.now() + (opts.timeoutMs ?? 60 * 60_000);
  const everyMs = opts.everyMs ?? 1500;
  let delay = 0;
  let changedAt = Date.now();
  let lastKey: string | undefined;
  for (;;) {
    const v = await withRetry(read, { onWait: opts.onWait, patienceMs: 10 * 60_000 });
    opts.onTick?.(v);
    if (done(v)) return v;
    if (Date.now() > deadline) throw new Error(`Gave up waiting for ${opts.what}.`);
    const key = opts.changeKey?.(v);
    if (key !== lastKey) {
      if (lastKey !== undefined) changedAt = Date.now();
      lastKey = key;
    }
    delay = nextPollDelay(delay, Date.now() - changedAt, everyMs);
    await new Promise((r) => setTimeout(r, delay));
  }
}
