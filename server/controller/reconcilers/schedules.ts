/**
 * Schedules: each sweep ticks the active ones (a due slot admits, coalesces or finishes)
 * and moves runs being admitted along; the owner's changes, the data a run waits for and
 * the end of a started run's experiment or search wake its schedule at once.
 */
import type { Db } from "@/server/db/client";
import { schedulesRepository } from "@/server/schedules/schedules.repository";
import { advanceSchedule } from "@/server/schedules/tick";
import { defineReconciler } from "../define-reconciler";

export const schedules = (db: Db, everyMs = 3000) => {
  const repo = schedulesRepository(db);
  return defineReconciler({
    name: "schedules",
    everyMs,
    active: () => repo.withWork(),
    advance: (id) => advanceSchedule(db, id),
    wakeOn: async (e) => {
      switch (e.event.type) {
        case "schedule.changed":
          return e.event.scheduleId;
        case "dataset.changed":
          return repo.schedulesAdmittingDataset(e.event.datasetId);
        case "experiment.changed":
          return repo.schedulesOfRun({ experimentId: e.event.experimentId });
        case "search.changed":
          return repo.schedulesOfRun({ searchId: e.event.searchId });
        default:
          return null;
      }
    },
  });
};
