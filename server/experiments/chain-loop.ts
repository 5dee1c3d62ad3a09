/**
 * Drives experiment chains: every job change of an experiment's step advances it at
 * once, and a sweep every few seconds advances all running experiments (after a restart
 * too: that is how a chain resumes, launching only steps that never started).
 */
import type { Db } from "@/server/db/client";
import { startSweepLoop } from "@/server/events/sweep-loop";
import { scheduleAdvance } from "./chain-advance";
import { experimentsRepository } from "./experiments.repository";

export function startChainLoop(db: Db, everyMs = 3000): () => Promise<void> {
  return startSweepLoop({
    everyMs,
    active: () => experimentsRepository(db).active(),
    advance: (id) => scheduleAdvance(db, id),
    listen: (e) => {
      if (e.event.type !== "job.changed") return;
      void db.job
        .findUnique({ where: { id: e.event.jobId }, select: { experimentId: true } })
        .then((j) => (j?.experimentId ? scheduleAdvance(db, j.experimentId) : undefined))
        .catch(() => {});
    },
  });
}
