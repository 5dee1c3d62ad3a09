/**
 * Searches: a trial's or final experiment's change, or its planner's job ending, advances
 * its search at once, and the sweep advances every active search (after a restart too:
 * that is how a search resumes, from its ledger).
 */
import type { Db } from "@/server/db/client";
import { searchesRepository } from "@/server/searches/searches.repository";
import { scheduleSearchAdvance } from "@/server/searches/searches.service";
import { searchOfOpId } from "@/server/searches/search-ids";
import { defineReconciler } from "../define-reconciler";

export const searches = (db: Db, everyMs = 3000) =>
  defineReconciler({
    name: "searches",
    everyMs,
    active: () => searchesRepository(db).active(),
    advance: (id) => scheduleSearchAdvance(db, id),
    wakeOn: async (e) => {
      // A trial's or the final experiment's change, and the planner's job ending (it belongs to no experiment).
      if (e.event.type === "experiment.changed") {
        const x = await db.experiment.findUnique({ where: { id: e.event.experimentId }, select: { opId: true } });
        return x ? searchOfOpId(x.opId) : null;
      }
      if (e.event.type === "job.changed" && !e.event.experimentId) {
        const x = await db.job.findUnique({ where: { id: e.event.jobId }, select: { opId: true } });
        return x ? searchOfOpId(x.opId) : null;
      }
      return null;
    },
  });
