/**
 * Drives experiment chains: every job change of an experiment's step advances it at
 * once, and a sweep every few seconds advances all running experiments (after a restart
 * too: that is how a chain resumes, launching only steps that never started).
 */
import type { Db } from "@/server/db/client";
import { eventBus } from "@/server/events/bus";
import { scheduleAdvance } from "./chain-advance";
import { experimentsRepository } from "./experiments.repository";

export function startChainLoop(db: Db, everyMs = 3000): () => Promise<void> {
  let stopped = false;
  const off = eventBus().subscribe(["jobs"], (e) => {
    if (e.event.type !== "job.changed" || stopped) return;
    void db.job
      .findUnique({ where: { id: e.event.jobId }, select: { experimentId: true } })
      .then((j) => (j?.experimentId ? scheduleAdvance(db, j.experimentId) : undefined))
      .catch(() => {});
  });
  let running: Promise<void> = Promise.resolve();
  const sweep = async () => {
    for (const { id } of await experimentsRepository(db).active()) {
      if (stopped) return;
      await scheduleAdvance(db, id);
    }
  };
  const timer = setInterval(() => {
    running = running.then(sweep).catch(() => {});
  }, everyMs);
  running = running.then(sweep).catch(() => {});
  return async () => {
    stopped = true;
    off();
    clearInterval(timer);
    await running;
  };
}
