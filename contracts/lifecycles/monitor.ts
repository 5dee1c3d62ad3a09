/**
 * A deployment monitor (issue 30; server/monitoring). It is made `preparing` while the
 * data.reference job bins its release's training partition, then `watching`: each request
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
  initial: ["preparing"],
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
