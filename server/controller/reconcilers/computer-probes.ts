/**
 * Computers probed between uses (This computer: a process start) are probed again when
 * their last probe is older than PROBE_EVERY_MS, so reachability is known without jobs.
 * A computer whose probe fails is tried again after the same time, not every sweep.
 */
import type { Db } from "@/server/db/client";
import { targetFor } from "@/server/targets/target-for";
import { targetsRepository } from "@/server/targets/targets.repository";
import { targetsService } from "@/server/targets/targets.service";
import { defineReconciler } from "../define-reconciler";

const PROBE_EVERY_MS = 5 * 60_000;

export const computerProbes = (db: Db, everyMs: number) => {
  const lastTry = new Map<string, number>();
  return defineReconciler({
    name: "computer probes",
    everyMs,
    active: async () =>
      (await targetsRepository(db).list()).filter((t) => {
        const last = Math.max(t.probedAt?.getTime() ?? 0, lastTry.get(t.id) ?? 0);
        return Date.now() - last >= PROBE_EVERY_MS && targetFor(t, db).probedInBackground;
      }),
    advance: async (id) => {
      lastTry.set(id, Date.now());
      await targetsService(db).probe(id);
    },
  });
};
