/**
 * Experiment chains: every job change of an experiment's step advances it at once, and the
 * sweep advances every running experiment (after a restart too: that is how a chain
 * resumes, launching only steps that never started).
 */
import type { Db } from "@/server/db/client";
import { scheduleAdvance } from "@/server/experiments/chain-advance";
import { experimentsRepository } from "@/server/experiments/experiments.repository";
import { defineReconciler } from "../define-reconciler";

export const experimentChains = (db: Db, everyMs = 3000) =>
  defineReconciler({
    name: "experiment chains",
    everyMs,
    active: () => experimentsRepository(db).active(),
    advance: (id) => scheduleAdvance(db, id),
    wakeOn: async (e) => {
      if (e.event.type !== "job.changed") return null;
      const job = await db.job.findUnique({ where: { id: e.event.jobId }, select: { experimentId: true } });
      return job?.experimentId ?? null;
    },
  });
