/** Polling helpers for the CLI: wait for a condition, across server restarts. */
import { withRetry } from "../api-client";

export async function waitUntil<T>(
  read: () => Promise<T>,
  done: (v: T) => boolean,
  opts: { everyMs?: number; timeoutMs?: number; onTick?: (v: T) => void; onWait?: (m: string) => void; what: string },
): Promise<T> {
  const deadline = Date.now() + (opts.timeoutMs ?? 60 * 60_000);
  for (;;) {
    const v = await withRetry(read, { onWait: opts.onWait, patienceMs: 10 * 60_000 });
    opts.onTick?.(v);
    if (done(v)) return v;
    if (Date.now() > deadline) throw new Error(`Gave up waiting for ${opts.what}.`);
    await new Promise((r) => setTimeout(r, opts.everyMs ?? 1500));
  }
}
