/**
 * Lifecycles of a search and of its trials (issue 17).
 *
 * A search runs trials one at a time. `paused` admits no new trial (a running one
 * finishes); `stopping` has asked its running trial to cancel; `finalizing` scores the
 * chosen candidate (or the baseline) once on the test partition; `completed` holds that
 * result. Resume goes back to `running` within the budget that is left.
 *
 * A trial is `proposed` when an agent's proposal was accepted and waits its turn,
 * `reserved` once its share of the budget is booked (the ledger entry, written before its
 * experiment starts), `running` while its experiment runs, and ends with that experiment.
 * `unknown` keeps its reservation until the computer answers again. A rejected proposal
 * is recorded as `rejected`, with every reason.
 */
import { defineLifecycle } from "./define";

export const searchLifecycle = defineLifecycle({
  name: "search",
  states: ["running", "paused", "stopping", "finalizing", "completed", "failed"],
  initial: ["running"],
  terminal: ["completed", "failed"],
  transitions: {
    running: ["paused", "stopping", "finalizing", "failed"],
    paused: ["running", "stopping", "finalizing", "failed"],
    stopping: ["finalizing", "failed"],
    finalizing: ["completed", "failed"],
    completed: [],
    failed: [],
  },
});

export const trialLifecycle = defineLifecycle({
  name: "trial",
  states: ["proposed", "reserved", "running", "unknown", "succeeded", "failed", "cancelled", "timed_out", "rejected"],
  initial: ["proposed", "reserved", "rejected"],
  terminal: ["succeeded", "failed", "cancelled", "timed_out", "rejected"],
  transitions: {
    proposed: ["reserved", "cancelled"],
    reserved: ["running", "failed", "cancelled"],
    running: ["unknown", "succeeded", "failed", "cancelled", "timed_out"],
    unknown: ["running", "succeeded", "failed", "cancelled", "timed_out"],
    succeeded: [],
    failed: [],
    cancelled: [],
    timed_out: [],
    rejected: [],
  },
});

export type SearchState = (typeof searchLifecycle.states)[number];
export type TrialState = (typeof trialLifecycle.states)[number];
