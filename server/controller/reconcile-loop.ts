/**
 * The reconcile loop: exactly one per server process (a second start is refused), one
 * pass at a time (a pass never overlaps the next), stopped with the server. At start it
 * makes sure This computer's Target row and worker config exist and probes it; every
 * pass then reconciles active jobs (server/jobs/reconcile.ts) and re-probes computers
 * whose probe is older than PROBE_EVERY_MS, so reachability is known without jobs.
 *
 * This computer's worker writes a receipt at every job transition: a watch on its receipts
 * folder runs the next pass at once (still one at a time), so a finished step is noticed
 * in milliseconds, not at the next tick, and the experiment chain moves on. Servers and a
 * failed watch fall back to the poll.
 */
import { watch, type FSWatcher } from "node:fs";
import type { Db } from "@/server/db/client";
import { reconcileDeployments } from "@/server/deployments/deployments-reconcile";
import { reconcilePass } from "@/server/jobs/reconcile";
import { workerLayout } from "@/server/targets/layout";
import { ensureLocalTarget } from "@/server/targets/local/local-target";
import { removeStaleParts } from "./stale-parts";
import { targetFor } from "@/server/targets/target-for";
import { targetsRepository } from "@/server/targets/targets.repository";
import { targetsService } from "@/server/targets/targets.service";
import { loopStats } from "./loop-stats";
import type { ControllerRuntime } from "@/server/config/runtime";

const PROBE_EVERY_MS = 5 * 60_000;
/** A burst of receipt writes (admitted, running, succeeded) becomes one pass. */
const WAKE_DELAY_MS = 50;
/** Between a pass and one woken during it, so passes that write receipts cannot spin. */
const WAKE_AGAIN_MS = 200;
const RUNNING = Symbol.for("trainyard.reconcileLoopRunning");

export function startReconcileLoop(rt: ControllerRuntime, db: Db, log: (line: string) => void = (l) => console.log(l)): () => Promise<void> {
  const g = globalThis as { [RUNNING]?: boolean };
  if (g[RUNNING]) throw new Error("the reconcile loop is already running in this process");
  g[RUNNING] = true;
  const stats = loopStats();
  stats.startedAt = Date.now();
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let current: Promise<void> = Promise.resolve();
  const lastProbeTry = new Map<string, number>();

  async function probeStale(): Promise<void> {
    for (const t of await targetsRepository(db).list()) {
      const last = Math.max(t.probedAt?.getTime() ?? 0, lastProbeTry.get(t.id) ?? 0);
      if (Date.now() - last < PROBE_EVERY_MS || !targetFor(t, db).probedInBackground) continue;
      lastProbeTry.set(t.id, Date.now());
      await targetsService(db).probe(t.id).catch((err: Error) => log(`probe of ${t.name} failed: ${err.message}`));
    }
  }

  async function pass(): Promise<void> {
    try {
      await reconcilePass(db, { unreachableMs: rt.config.unreachableMinutes * 60_000, log });
      await reconcileDeployments(db, log);
      await probeStale();
      stats.lastSuccessAt = Date.now();
      stats.passes++;
    } catch (err) {
      stats.failedPasses++;
      log(`reconcile pass failed: ${(err as Error).stack ?? String(err)}`);
    }
  }

  let passing = true; // the first pass starts below
  let again = false;
  let watcher: FSWatcher | null = null;

  function afterPass() {
    passing = false;
    if (!watcher) watchLocalReceipts(); // the worker makes its folders on first use
    const now = again;
    again = false;
    schedule(now ? WAKE_AGAIN_MS : rt.config.reconcileMs);
  }

  function schedule(delay: number) {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      passing = true;
      current = pass().finally(afterPass);
    }, delay);
  }

  /** A local receipt changed: pass soon, or right after the pass in progress. */
  function wake() {
    if (stopped) return;
    if (passing) again = true;
    else schedule(WAKE_DELAY_MS);
  }

  let watchProblemLogged = false;
  function watchLocalReceipts() {
    if (stopped) return;
    try {
      watcher = watch(workerLayout(rt.home.workerHome).receipts, { persistent: false }, wake);
      watcher.on("error", (err) => {
        log(`watching This computer's receipts stopped (${err.message}); polling every ${rt.config.reconcileMs} ms`);
        watcher?.close();
        watcher = null;
      });
    } catch (err) {
      if (!watchProblemLogged) log(`cannot watch This computer's receipts yet (${(err as Error).message}); polling every ${rt.config.reconcileMs} ms`);
      watchProblemLogged = true;
    }
  }

  current = (async () => {
    try {
      await ensureLocalTarget(rt, db);
      const removed = await removeStaleParts(db);
      if (removed.length) log(`removed ${removed.length} upload part(s) older than a day from This computer's incoming folder`);
    } catch (err) {
      log(`could not set up This computer: ${(err as Error).message}`);
    }
    await pass();
  })().finally(afterPass);

  return async () => {
    stopped = true;
    watcher?.close();
    if (timer) clearTimeout(timer);
    await current.catch(() => {});
    g[RUNNING] = false;
  };
}
