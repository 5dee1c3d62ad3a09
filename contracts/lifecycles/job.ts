/**
 * A job has two lifecycles over the same states, because two parties watch it.
 *
 * - `workerJobLifecycle`: what the worker itself does to a job (worker/src/jobstate.ts).
 *   It moves one step at a time and `unknown` only resolves to an ending.
 * - `controllerJobLifecycle`: what the controller records of the worker's receipts
 *   (server/jobs/job-state.ts). It sees the receipt only now and then, so it allows
 *   forward skips (seen `queued`, next seen `succeeded`), and `unknown` (the worker did not
 *   answer) may move back to whatever the worker confirms, an active state included.
 *
 * Both end in the same four terminal states; terminal states never change again.
 */
import { defineLifecycle } from "./define";

export const JOB_STATES = ["queued", "admitted", "running", "succeeded", "failed", "cancelled", "timed_out", "unknown"] as const;
export const JOB_TERMINAL = ["succeeded", "failed", "cancelled", "timed_out"] as const;

export const workerJobLifecycle = defineLifecycle({
  name: "worker job",
  states: JOB_STATES,
  initial: ["queued"],
  terminal: JOB_TERMINAL,
  transitions: {
    queued: ["admitted", "cancelled", "failed"],
    admitted: ["running", "failed", "cancelled", "unknown"],
    running: ["succeeded", "failed", "cancelled", "timed_out", "unknown"],
    // `unknown` reconciles to what really happened once it can be confirmed.
    unknown: ["succeeded", "failed", "cancelled", "timed_out"],
    succeeded: [],
    failed: [],
    cancelled: [],
    timed_out: [],
  },
});

export const controllerJobLifecycle = defineLifecycle({
  name: "job",
  states: JOB_STATES,
  initial: ["queued"],
  terminal: JOB_TERMINAL,
  transitions: {
    queued: ["admitted", "running", "succeeded", "failed", "cancelled", "timed_out", "unknown"],
    admitted: ["running", "succeeded", "failed", "cancelled", "timed_out", "unknown"],
    running: ["succeeded", "failed", "cancelled", "timed_out", "unknown"],
    unknown: ["queued", "admitted", "running", "succeeded", "failed", "cancelled", "timed_out"],
    succeeded: [],
    failed: [],
    cancelled: [],
    timed_out: [],
  },
});

export type JobState = (typeof JOB_STATES)[number];
export type JobTerminalState = (typeof JOB_TERMINAL)[number];
