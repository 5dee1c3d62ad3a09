/**
 * The lifecycles of a dataset's profile, a cached check and a split contract. Each is
 * settled from one data job (server/datasets/settle.ts).
 *
 * Nothing about a dataset or a check is final: a dataset is profiled again when its
 * encoding changes or it is registered again, and a check is re-run on request. A split
 * contract that is `ready` never changes (same snapshot + settings = same contract); a
 * failed one is run again when asked for, or made ready by a job that made the same split.
 */
import { defineLifecycle } from "./define";

export const datasetLifecycle = defineLifecycle({
  name: "dataset",
  states: ["profiling", "ready", "failed"],
  initial: ["profiling"],
  terminal: [],
  transitions: {
    profiling: ["ready", "failed"],
    ready: ["profiling"],
    failed: ["profiling"],
  },
});

export const checkLifecycle = defineLifecycle({
  name: "check",
  states: ["running", "ready", "failed"],
  initial: ["running"],
  terminal: [],
  transitions: {
    running: ["ready", "failed"],
    ready: ["running"],
    failed: ["running"],
  },
});

export const splitLifecycle = defineLifecycle({
  name: "split",
  states: ["running", "ready", "failed"],
  initial: ["running"],
  terminal: ["ready"],
  transitions: {
    running: ["ready", "failed"],
    // Run again, or made ready by another job that made the same split (the chain's step).
    failed: ["running", "ready"],
    ready: [],
  },
});

export type DatasetStatus = (typeof datasetLifecycle.states)[number];
export type CheckStatus = (typeof checkLifecycle.states)[number];
export type SplitStatus = (typeof splitLifecycle.states)[number];
