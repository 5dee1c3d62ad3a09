/**
 * The one shape of a background loop that drives rows of a lifecycle forward: which rows
 * are active, how to advance one, and which live events wake which row. The reconciler
 * owns the rest, once: a sweep every `everyMs` (after a restart too: a sweep is how work
 * resumes from the database; sweeps never overlap), single flight per row (a row woken
 * while it advances advances once more after, never twice at once), failures reported
 * with the reconciler's name instead of swallowed, and a stop that waits for the work in
 * progress. A new background feature is one table (a lifecycle) plus one file under
 * reconcilers/ (docs/dev/background-work.md).
 */
import { eventBus } from "@/server/events/bus";
import type { Envelope } from "@/server/events/event-types";
import { sweepStats } from "./loop-stats";

export interface ReconcilerSpec {
  /** Names it in the log ("experiment chains"). */
  name: string;
  everyMs: number;
  /** The ids of the rows to advance on each sweep. */
  active(): Promise<{ id: string }[]>;
  /** One step of one row; it may be called again at once, so it decides from the database. */
  advance(id: string): Promise<void>;
  /** The row(s) a live event concerns (advanced at once), or null. */
  wakeOn?(e: Envelope): Promise<WakeRows> | WakeRows;
}

type WakeRows = string | readonly string[] | null;

export interface Reconciler {
  readonly name: string;
  /** Starts the sweep and the event subscription; returns the stop, which waits for work in progress. */
  start(log?: (line: string) => void): () => Promise<void>;
  /** Advances one row now (single flight); resolves when that advance ended. */
  wake(id: string): Promise<void>;
}

export function defineReconciler(spec: ReconcilerSpec): Reconciler {
  const running = new Map<string, Promise<void>>();
  const again = new Set<string>();
  let log: (line: string) => void = (l) => console.error(l);
  let stopped = true;

  const stats = sweepStats(spec.name);
  /** Whether the sweep in progress has met a failure (its stats say so). */
  let sweepFailed = false;
  const report = (what: string, err: unknown) => {
    sweepFailed = true;
    log(`${spec.name}: ${what}: ${err instanceof Error ? err.message.split("\n").find((l) => l.trim()) ?? err.name : String(err)}`);
  };

  const wake = (id: string): Promise<void> => {
    const current = running.get(id);
    if (current) {
      // Woken while it advances: once more after, whatever happened meanwhile.
      again.add(id);
      return current;
    }
    const run = (async () => {
      do {
        again.delete(id);
        await spec.advance(id).catch((err: unknown) => report(`advancing ${id}`, err));
      } while (again.has(id) && !stopped);
    })();
    running.set(id, run);
    void run.finally(() => running.delete(id));
    return run;
  };

  return {
    name: spec.name,
    wake,
    start(logTo) {
      if (logTo) log = logTo;
      stopped = false;
      const off = spec.wakeOn
        ? eventBus().subscribe(null, (e) => {
            if (stopped) return;
            void Promise.resolve()
              .then(() => spec.wakeOn!(e))
              .then((rows) => {
                if (stopped || rows === null) return;
                return Promise.all((typeof rows === "string" ? [rows] : rows).map(wake));
              })
              .catch((err: unknown) => report(`reading event ${e.event.type}`, err));
          })
        : () => {};
      let sweeping: Promise<void> = Promise.resolve();
      stats.startedAt = Date.now();
      const sweep = async () => {
        sweepFailed = false;
        const rows = await spec.active().catch((err: unknown) => (report("listing active rows", err), []));
        for (const { id } of rows) {
          if (stopped) return;
          await wake(id);
        }
        stats.sweeps++;
        if (sweepFailed) stats.failedSweeps++;
        else stats.lastSuccessAt = Date.now();
      };
      const timer = setInterval(() => (sweeping = sweeping.then(sweep)), spec.everyMs);
      sweeping = sweeping.then(sweep);
      return async () => {
        stopped = true;
        off();
        clearInterval(timer);
        await sweeping;
        await Promise.all(running.values());
      };
    },
  };
}
