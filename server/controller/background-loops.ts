/**
 * The background loops of one server process: the job reconcile loop, and the
 * reconcilers (define-reconciler.ts) of experiment chains, searches, data steps and monitors. Started once by startServer after the port is open; the
 * returned function stops them and waits for a pass in progress to end.
 */
import type { AppConfig } from "@/server/config/env";
import type { HomePaths } from "@/server/config/home";
import { getDb } from "@/server/db/client";
import { backfillVersionServing, backfillWords } from "@/server/registry/backfill-serving";
import { startReconcileLoop } from "./reconcile-loop";
import { experimentChains } from "./reconcilers/experiment-chains";
import { dataSteps } from "./reconcilers/data-steps";
import { searches } from "./reconcilers/searches";
import { monitors } from "./reconcilers/monitors";
import { countRequestsForMonitors } from "@/server/monitoring/window-counts";
import { clearControllerRuntime, repoRootFromHere, setControllerRuntime } from "@/server/config/runtime";

export function startBackgroundLoops(config: AppConfig, home: HomePaths): () => Promise<void> {
  const runtime = { config, home, repoRoot: repoRootFromHere() };
  setControllerRuntime(runtime);
  const stopReconcile = startReconcileLoop(runtime, getDb());
  const stopChains = experimentChains(getDb()).start();
  const stopSearches = searches(getDb()).start();
  const stopDataSteps = dataSteps(getDb()).start();
  countRequestsForMonitors();
  const stopMonitors = monitors(getDb()).start();
  // The one-time copy of older versions' serving records: at most a few reads per version, once.
  void backfillVersionServing(getDb()).then(
    (o) => {
      const words = backfillWords(o);
      if (words) console.log(words);
    },
    (err: unknown) => console.error(`registry: copying versions' serving records failed: ${(err as Error).message}`),
  );
  return async () => {
    await stopMonitors();
    await stopDataSteps();
    await stopSearches();
    await stopChains();
    await stopReconcile();
    clearControllerRuntime();
  };
}
