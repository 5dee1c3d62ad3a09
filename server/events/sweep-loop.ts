/**
 * A background loop that advances every active record of one kind: at once when an event
 * names one (`listen`), and in a sweep every `everyMs` (after a restart too: a sweep is how
 * work resumes from the database). Sweeps never overlap; the returned function stops the
 * loop and waits for a sweep in progress to end.
 */
import { eventBus } from "./bus";
import type { Envelope } from "./event-types";

export function startSweepLoop(opts: {
  everyMs: number;
  /** The ids to advance on each sweep. */
  active: () => Promise<{ id: string }[]>;
  advance: (id: string) => Promise<void>;
  /** Called for every live event while the loop runs (look up its record, then advance it). */
  listen: (e: Envelope) => void;
}): () => Promise<void> {
  let stopped = false;
  const off = eventBus().subscribe(null, (e) => {
    if (!stopped) opts.listen(e);
  });
  let running: Promise<void> = Promise.resolve();
  const sweep = async () => {
    for (const { id } of await opts.active()) {
      if (stopped) return;
      await opts.advance(id);
    }
  };
  const timer = setInterval(() => {
    running = running.then(sweep).catch(() => {});
  }, opts.everyMs);
  running = running.then(sweep).catch(() => {});
  return async () => {
    stopped = true;
    off();
    clearInterval(timer);
    await running;
  };
}
