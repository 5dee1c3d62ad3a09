/**
 * The one way to wait for a job outside a pipeline (on-demand predictions, a serving job
 * being stopped): the job's own `job.changed` events wake the wait, so it ends within
 * milliseconds of the reconciler recording the end, and a slow re-read covers an event
 * this process could not see. A pipeline step does not wait: its reconciler is woken by the
 * same event instead.
 */
import type { Db } from "@/server/db/client";
import { eventBus } from "@/server/events/bus";
import { isTerminal } from "./job-state";
import { jobsService } from "./jobs.service";
import type { JobDetailView } from "./jobs.schema";

/** Between re-reads when no event came: a safety net, not the way the end is noticed. */
const REREAD_MS = 2000;

export type JobWait = { ended: true; job: JobDetailView } | { ended: false; job: JobDetailView };

/** Resolves with the job once it is terminal, or with its last view when `timeoutMs` passed first. */
export async function waitForJobEnd(db: Db, jobId: string, timeoutMs: number): Promise<JobWait> {
  const jobs = jobsService(db);
  const until = Date.now() + timeoutMs;
  let wake: () => void = () => {};
  const off = eventBus().subscribe([`job:${jobId}`], (e) => {
    if (e.event.type === "job.changed") wake();
  });
  try {
    for (;;) {
      // Subscribed before this read: an end recorded between the read and the wait still wakes it.
      const woken = new Promise<void>((r) => (wake = r));
      const job = await jobs.get(jobId);
      if (isTerminal(job.state)) return { ended: true, job };
      const left = until - Date.now();
      if (left <= 0) return { ended: false, job };
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([woken, new Promise<void>((r) => (timer = setTimeout(r, Math.min(left, REREAD_MS))))]);
      clearTimeout(timer);
    }
  } finally {
    off();
  }
}
