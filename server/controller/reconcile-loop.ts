/**
 * The reconcile loop: exactly one per server process (a second start is refused), one
 * pass at a time (a pass never overlaps the next), stopped with the server. At start it
 * makes sure This computer's Target row and worker config exist and probes it; every
 * pass then reconciles active jobs (server/jobs/reconcile.ts) and re-probes computers
 * whose probe is older than PROBE_EVERY_MS, so reachability is known without jobs.
 */
import type { Db } from "@/server/db/client";
import { reconcilePass } from "@/server/jobs/reconcile";
import { ensureLocalTarget } from "@/server/targets/local/local-target";
import { targetsRepository } from "@/server/targets/targets.repository";
import { targetsService } from "@/server/targets/targets.service";
import { loopStats } from "./loop-stats";
import type { ControllerRuntime } from "./runtime";

const PROBE_EVERY_MS = 5 * 60_000;
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
      if (Date.now() - last < PROBE_EVERY_MS || t.kind !== "local") continue;
      lastProbeTry.set(t.id, Date.now());
      await targetsService(db).probe(t.id).catch((err: Error) => log(`probe of ${t.name} failed: ${err.message}`));
    }
  }

  async function pass(): Promise<void> {
    try {
      await reconcilePass(db, { unreachableMs: rt.config.unreachableMinutes * 60_000, log });
      await probeStale();
      stats.lastSuccessAt = Date.now();
      stats.passes++;
    } catch (err) {
      stats.failedPasses++;
      log(`reconcile pass failed: ${(err as Error).stack ?? String(err)}`);
    }
  }

  function schedule(delay: number) {
    if (stopped) return;
    timer = setTimeout(() => {
      current = pass().finally(() => schedule(rt.config.reconcileMs));
    }, delay);
  }

  current = (async () => {
    try {
      await ensureLocalTarget(rt, db);
    } catch (err) {
      log(`could not set up This computer: ${(err as Error).message}`);
    }
    await pass();
  })().finally(() => schedule(rt.config.reconcileMs));

  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    await current.catch(() => {});
    g[RUNNING] = false;
  };
}
