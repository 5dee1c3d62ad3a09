/**
 * A schedule (issue 31; server/schedules). `active` it ticks at its clock's slots; `paused`
 * it does not (a slot missed while paused is not made up); `finished` it reached a lifetime
 * cap and stays stopped until the owner raises the cap (an edit makes it active again).
 * A deleted schedule goes with its runs, so nothing is terminal.
 */
import { z } from "zod";
import { defineLifecycle } from "./define";

export const ZScheduleFinished = z.strictObject({ cap: z.enum(["runs", "compute_minutes"]) });

export const scheduleLifecycle = defineLifecycle({
  name: "schedule",
  states: ["active", "paused", "finished"],
  initial: ["active", "paused"],
  terminal: [],
  transitions: {
    active: ["paused", "finished"],
    paused: ["active", "finished"],
    finished: ["active"],
  },
  payloads: { finished: ZScheduleFinished },
});

export type ScheduleState = (typeof scheduleLifecycle.states)[number];

export interface ScheduleStateData {
  finished: z.infer<typeof ZScheduleFinished>;
}
