/** Polling helpers for the CLI: wait for a condition, across server restarts. */
import { withRetry } from "../api-client";

// The first polls come quickly (a profile or the checks take about a second), then slow
// down to `everyMs`, so a long wait costs the server no more requests than before.
const FIRST_POLL_MS = 200;

export async function waitUntil<T>(
  read: () => Promise<T>,
  done: (v: T) => boolean,
  opts: { everyMs?: number; timeoutMs?: number; onTick?: (v: T) => void; onWait?: (m: string) => void; what: string },
): Promise<T> {
  const deadline = Date.now() + (opts.timeoutMs ?? 60 * 60_000);
  const everyMs = opts.everyMs ?? 1500;
  let delay = Math.min(FIRST_POLL_MS, everyMs);
  for (;;) {
    const v = await withRetry(read, { onWait: opts.onWait, patienceMs: 10 * 60_000 });
    opts.onTick?.(v);
    if (done(v)) return v;
    if (Date.now() > deadline) throw new Error(`Gave up waiting for ${opts.what}.`);
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(everyMs, Math.round(delay * 1.5));
  }
}
