/**
 * Experiment status (DESIGN "Job lifecycle"): `running` while any job of it is active or
 * steps remain, then the first of failed, cancelled, timed_out or unknown among its jobs,
 * else succeeded. `unknown` is not terminal: it follows its jobs when they reconcile.
 */
import { defineLifecycle } from "./define";

export const experimentLifecycle = defineLifecycle({
  name: "experiment",
  states: ["running", "succeeded", "failed", "cancelled", "timed_out", "unknown"],
  initial: ["running"],
  terminal: ["succeeded", "failed", "cancelled", "timed_out"],
  transitions: {
    running: ["succeeded", "failed", "cancelled", "timed_out", "unknown"],
    unknown: ["running", "succeeded", "failed", "cancelled", "timed_out"],
    succeeded: [],
    failed: [],
    cancelled: [],
    timed_out: [],
  },
});

export type ExperimentStatus = (typeof experimentLifecycle.states)[number];
