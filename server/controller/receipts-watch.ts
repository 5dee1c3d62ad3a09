/**
 * This computer's worker writes a receipt at every job transition: a watch on its receipts
 * folder wakes the jobs' reconciler for This computer at once (a burst of writes —
 * admitted, running, succeeded — becomes one wake), so a finished step is recorded in
 * milliseconds and the experiment chain moves on. A failed watch falls back to the sweep.
 */
import { mkdirSync, watch, type FSWatcher } from "node:fs";

/** A burst of receipt writes becomes one wake. */
const WAKE_DELAY_MS = 50;

export function watchReceipts(folder: string, wake: () => void, log: (line: string) => void, sweepMs: number): () => void {
  let timer: NodeJS.Timeout | null = null;
  let watcher: FSWatcher | null = null;
  const fallback = (why: string) => log(`watching This computer's receipts stopped (${why}); its jobs are reconciled every ${sweepMs} ms`);
  try {
    // The worker makes its folders on first use; made here, the watch holds from the start.
    mkdirSync(folder, { recursive: true });
    watcher = watch(folder, { persistent: false }, () => {
      timer ??= setTimeout(() => {
        timer = null;
        wake();
      }, WAKE_DELAY_MS);
    });
    watcher.on("error", (err) => {
      fallback(err.message);
      watcher?.close();
      watcher = null;
    });
  } catch (err) {
    fallback((err as Error).message);
  }
  return () => {
    watcher?.close();
    if (timer) clearTimeout(timer);
  };
}
