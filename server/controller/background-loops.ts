/**
 * The background work of one server process, every part a reconciler
 * (define-reconciler.ts): jobs, computer probes, deployments, experiment chains, searches,
 * data steps, monitors, schedules and notifications. Started once by startServer after the port is open (a second
 * start in one process is refused); the returned function stops them all and waits for
 * the work in progress.
 */
import { policies } from "./reconcilers/policies";
import type { AppConfig } from "@/server/config/env";
import type { HomePaths } from "@/server/config/home";
import { getDb, type Db } from "@/server/db/client";
import { backfillVersionServing, backfillWords } from "@/server/registry/backfill-serving";
import { countRequestsForMonitors } from "@/server/monitoring/window-counts";
import { workerLayout } from "@/server/targets/layout";
import { ensureLocalTarget } from "@/server/targets/local/local-target";
import { clearControllerRuntime, repoRootFromHere, setControllerRuntime, type ControllerRuntime } from "@/server/config/runtime";
import { watchReceipts } from "./receipts-watch";
import { removeStaleParts } from "./stale-parts";
import { computerProbes } from "./reconcilers/computer-probes";
import { environmentsAhead } from "./reconcilers/environments-ahead";
import { dataSteps } from "./reconcilers/data-steps";
import { deployments } from "./reconcilers/deployments";
import { experimentChains } from "./reconcilers/experiment-chains";
import { jobs } from "./reconcilers/jobs";
import { monitors } from "./reconcilers/monitors";
import { notifications } from "./reconcilers/notifications";
import { schedules } from "./reconcilers/schedules";
import { searches } from "./reconcilers/searches";

const RUNNING = Symbol.for("trainyard.backgroundLoopsRunning");

export function startBackgroundLoops(config: AppConfig, home: HomePaths): () => Promise<void> {
  const runtime = { config, home, repoRoot: repoRootFromHere() };
  setControllerRuntime(runtime);
  const stop = startReconcilers(runtime, getDb());
  // The one-time copy of older versions' serving records: at most a few reads per version, once.
  void backfillVersionServing(getDb()).then(
    (o) => {
      const words = backfillWords(o);
      if (words) console.log(words);
    },
    (err: unknown) => console.error(`registry: copying versions' serving records failed: ${(err as Error).message}`),
  );
  return async () => {
    await stop();
    clearControllerRuntime();
  };
}

/** Every reconciler on one database; exported for tests that drive a controller in-process. */
export function startReconcilers(rt: ControllerRuntime, db: Db, log: (line: string) => void = (l) => console.error(l)): () => Promise<void> {
  const g = globalThis as { [RUNNING]?: boolean };
  if (g[RUNNING]) throw new Error("the background reconcilers are already running in this process");
  g[RUNNING] = true;
  const sweepMs = rt.config.reconcileMs;
  const jobsReconciler = jobs(db, sweepMs, { unreachableMs: rt.config.unreachableMinutes * 60_000, log });
  const stops: (() => Promise<void> | void)[] = [];
  // Before any request is handled (this runs in the same turn as the listen): a request
  // answered while This computer is still being set up below counts in its window too.
  countRequestsForMonitors();
  const started = (async () => {
    try {
      const local = await ensureLocalTarget(rt, db);
      const removed = await removeStaleParts(db);
      if (removed.length) log(`removed ${removed.length} upload part(s) older than a day from This computer's incoming folder`);
      stops.push(watchReceipts(workerLayout(rt.home.workerHome).receipts, () => void jobsReconciler.wake(local.id), log, sweepMs));
    } catch (err) {
      log(`could not set up This computer: ${(err as Error).message}`);
    }
    for (const r of [jobsReconciler, computerProbes(db, sweepMs), ...(rt.config.prepareAhead ? [environmentsAhead(db, log)] : []), deployments(db, sweepMs), experimentChains(db), searches(db), dataSteps(db), monitors(db), schedules(db), policies(db), notifications(db)]) stops.push(r.start(log));
  })();
  return async () => {
    await started;
    // Newest first: what consumes jobs stops before the jobs' reconciler.
    for (const stop of stops.reverse()) await stop();
    g[RUNNING] = false;
  };
}
