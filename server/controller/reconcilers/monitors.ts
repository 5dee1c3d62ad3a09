/**
 * Monitors: a preparing monitor's reference job ending settles it at once; the sweep makes
 * references whose environment was still being set up, and judges windows the request path
 * closed (after a restart too).
 */
import type { Db } from "@/server/db/client";
import { advanceMonitor, monitorsWithWork } from "@/server/monitoring/monitors.service";
import { defineReconciler } from "../define-reconciler";

const MONITOR_JOB = /^data\.reference:monitor-([^:]+):/;

export const monitors = (db: Db, everyMs = 3000) =>
  defineReconciler({
    name: "monitors",
    everyMs,
    active: () => monitorsWithWork(db),
    advance: (id) => advanceMonitor(db, id),
    wakeOn: async (e) => {
      if (e.event.type !== "job.changed") return null;
      const job = await db.job.findUnique({ where: { id: e.event.jobId }, select: { opId: true } });
      return job ? (MONITOR_JOB.exec(job.opId)?.[1] ?? null) : null;
    },
  });
