/**
 * A deployment monitor (issue 30; server/monitoring). A tabular release's is made
 * `preparing` while the data.reference job bins its training partition, then `watching`
 * (a language model's starts watching): each request
 * the release answers counts into the open window. Pause and resume are the owner's; a
 * reference that could not be made is `failed` until the owner retries. The monitor of a
 * deleted deployment goes with it, so nothing is terminal.
 */
import { z } from "zod";
import { defineLifecycle } from "./define";

/** Why the reference could not be made: the job's refusal code, or a missing input. */
export const ZMonitorFailed = z.strictObject({ code: z.string() });

export const monitorLifecycle = defineLifecycle({
  name: "monitor",
  states: ["preparing", "watching", "paused", "failed"],
  // A language model's monitor starts watching: its bins are fixed, its reference a window of traffic.
  initial: ["preparing", "watching"],
  terminal: [],
  transitions: {
    preparing: ["watching", "failed"],
    watching: ["paused"],
    paused: ["watching"],
    failed: ["preparing"],
  },
  payloads: { failed: ZMonitorFailed },
});

export type MonitorState = (typeof monitorLifecycle.states)[number];

export interface MonitorStateData {
  failed: z.infer<typeof ZMonitorFailed>;
}

/**
 * A monitor's health policy: `armed` it judges each closed window of its release and, on a
 * breach, rolls the deployment back to the release the owner approved (once: `fired` is
 * final, the deployment then serves another release). `paused` it does nothing; `waiting`
 * it stopped itself for the owner (too many windows without enough traffic, no action left
 * today, or its rollback was refused) until the owner arms it again.
 */
/** The first window it judges: windows closed before it was armed (or armed again) are not its. */
export const ZPolicyArmed = z.strictObject({ fromWindow: z.int().positive() });
export const ZPolicyWaiting = z.strictObject({ cause: z.enum(["inconclusive", "daily_limit", "refused"]) });
export const ZPolicyFired = z.strictObject({ toRelease: z.int().positive(), newRelease: z.int().positive().nullable(), breach: z.enum(["failure_rate", "p95", "consecutive_errors"]) });

export const healthPolicyLifecycle = defineLifecycle({
  name: "health policy",
  states: ["armed", "paused", "waiting", "fired"],
  initial: ["armed"],
  terminal: ["fired"],
  transitions: {
    armed: ["paused", "waiting", "fired"],
    paused: ["armed"],
    waiting: ["armed", "paused"],
    fired: [],
  },
  payloads: { armed: ZPolicyArmed, waiting: ZPolicyWaiting, fired: ZPolicyFired },
});

export type HealthPolicyState = (typeof healthPolicyLifecycle.states)[number];

export interface HealthPolicyStateData {
  armed: z.infer<typeof ZPolicyArmed>;
  waiting: z.infer<typeof ZPolicyWaiting>;
  fired: z.infer<typeof ZPolicyFired>;
}
