/**
 * Computers cheap to probe between uses are probed again when their last probe is older
 * than PROBE_EVERY_MS (targets decide which), so reachability is known without jobs.
 * A computer whose probe fails is tried again after the same time, not every sweep.
 */
import type { Db } from "@/server/db/client";
import { dueForBackgroundProbe } from "@/server/targets/background-probes";
import { targetsService } from "@/server/targets/targets.service";
import { defineReconciler } from "../define-reconciler";

const PROBE_EVERY_MS = 5 * 60_000;

export const computerProbes = (db: Db, everyMs: number) => {
  const lastTry = new Map<string, number>();
  return defineReconciler({
    name: "computer probes",
    everyMs,
    active: () => dueForBackgroundProbe(db, PROBE_EVERY_MS, (id) => lastTry.get(id) ?? 0),
    advance: async (id) => {
      lastTry.set(id, Date.now());
      await targetsService(db).probe(id);
    },
  });
};
