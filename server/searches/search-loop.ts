/**
 * Drives searches: a trial's or final experiment's change, or its planner's job ending,
 * advances its search at once, and a sweep every few seconds advances every active search
 * (after a restart too: that is how a search resumes, from its ledger).
 */
import type { Db } from "@/server/db/client";
import { startSweepLoop } from "@/server/events/sweep-loop";
import { searchesRepository } from "./searches.repository";
import { scheduleSearchAdvance } from "./searches.service";

/** The search an experiment or job belongs to, from its operation id (search-advance.ts trialOpId, suggestOpId, finalOpId). */
const searchOfOpId = (opId: string): string | null => /^search:([^:]+):/.exec(opId)?.[1] ?? null;

export function startSearchLoop(db: Db, everyMs = 3000): () => Promise<void> {
  const advanceOwner = (opId: string | undefined) => {
    const id = opId ? searchOfOpId(opId) : null;
    return id ? scheduleSearchAdvance(db, id) : undefined;
  };
  return startSweepLoop({
    everyMs,
    active: () => searchesRepository(db).active(),
    advance: (id) => scheduleSearchAdvance(db, id),
    listen: (e) => {
      // A trial's or the final experiment's change, and the planner's job ending (it belongs to no experiment).
      if (e.event.type === "experiment.changed") {
        void db.experiment.findUnique({ where: { id: e.event.experimentId }, select: { opId: true } }).then((x) => advanceOwner(x?.opId)).catch(() => {});
      } else if (e.event.type === "job.changed" && !e.event.experimentId) {
        void db.job.findUnique({ where: { id: e.event.jobId }, select: { opId: true } }).then((x) => advanceOwner(x?.opId)).catch(() => {});
      }
    },
  });
}
