/**
 * Schedules (issue 31; server/schedules; docs/schedules.md): what tRPC `schedules.*`, the
 * CLI's `trainyard schedules` and the MCP tool list_schedules answer, one definition for
 * every door. A schedule retrains on a file at its clock's slots; each tick's decision is
 * a run (started, no-op, coalesced or refused), and a started run is an experiment or a
 * search like any other.
 */
import { z } from "zod";
import { scheduleLifecycle } from "@/contracts/lifecycles/schedule";

const id = z.string().min(1).max(64);

/** A file on a computer (inside its allowed folders), snapshotted at each tick like a registered path. */
export const ZPathSource = z.strictObject({
  kind: z.literal("path"),
  /** The computer (target) the file is on; each run trains there. */
  computerId: id,
  path: z.string().trim().min(1).max(4096),
  /** A file is used once two looks this far apart saw the same size and modification time. */
  stableSeconds: z.int().min(1).max(3600).default(10),
});
/** The newest upload (or registration) of a dataset of this name in the project. */
export const ZDatasetSource = z.strictObject({
  kind: z.literal("dataset"),
  name: z.string().trim().min(1).max(500),
  /** The computer each run trains on. */
  computerId: id,
});
export const ZScheduleSource = z.discriminatedUnion("kind", [ZPathSource, ZDatasetSource]);
export type ScheduleSource = z.infer<typeof ZScheduleSource>;
/** Without a computer: the project's default computer (This computer unless set). */
const ZScheduleSourceInput = z.discriminatedUnion("kind", [ZPathSource.extend({ computerId: id.optional() }), ZDatasetSource.extend({ computerId: id.optional() })]);

/** Minutes per day: an `every` clock runs at most once a minute and at least once a year. */
const MAX_EVERY_MINUTES = 366 * 24 * 60;

export const ZScheduleClock = z.discriminatedUnion("kind", [
  /** Every N minutes from when the schedule was made (or last edited). */
  z.strictObject({ kind: z.literal("every"), minutes: z.int().min(1).max(MAX_EVERY_MINUTES) }),
  /** At HH:MM wall-clock time in a named time zone (daylight saving handled), every day or on weekdays only. */
  z.strictObject({
    kind: z.literal("daily"),
    at: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "Give the time as HH:MM, 00:00 to 23:59."),
    tz: z.string().min(1).max(100).refine(isTimeZone, "Give an IANA time zone such as Europe/Berlin or UTC."),
    weekdays: z.boolean().default(false),
  }),
]);
export type ScheduleClock = z.infer<typeof ZScheduleClock>;

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** What each run trains: a Quick baseline, or a bounded search ("Improve within a budget")… */
export const ZTabularSpec = z.strictObject({
  target: z.string().min(1).max(500),
  mode: z.enum(["quick", "improve"]).default("quick"),
  /** The run's whole budget in minutes (default: 5 for quick, 10 for improve). */
  maxMinutes: z.number().positive().max(24 * 60).optional(),
  /** Improve only: at most this many trials. */
  maxTrials: z.int().min(1).max(1000).optional(),
});
/** …or a LoRA fine-tune of a language model on a file of examples (.jsonl). */
export const ZFineTuneSpec = z.strictObject({
  mode: z.literal("finetune"),
  /** The base model: a folder or a GGUF file on the computer, inside its allowed folders. */
  basePath: z.string().trim().min(1).max(4096),
  maxMinutes: z.number().positive().max(24 * 60).optional(),
  maxSteps: z.int().min(1).max(1_000_000).optional(),
  rank: z.int().min(1).max(1024).optional(),
  learningRate: z.number().min(1e-7).max(1).optional(),
  maxLength: z.int().min(16).max(32768).optional(),
  batchSize: z.int().min(1).max(512).optional(),
});
export const ZScheduleSpec = z.union([ZTabularSpec, ZFineTuneSpec]);
export type ScheduleSpec = z.infer<typeof ZScheduleSpec>;
export type TabularSpec = z.infer<typeof ZTabularSpec>;
export type FineTuneSpec = z.infer<typeof ZFineTuneSpec>;

export const ZCreateScheduleInput = z.strictObject({
  opId: z.string().min(8).max(200),
  projectId: id,
  name: z.string().trim().max(200).optional(),
  source: ZScheduleSourceInput,
  spec: ZScheduleSpec,
  clock: ZScheduleClock,
  /** Lifetime caps: the schedule finishes (and says so once) when a run would pass one. */
  maxRuns: z.int().min(1).max(100_000).nullable().default(null),
  maxComputeMinutes: z.number().positive().max(1e7).nullable().default(null),
  /** A file with fewer new rows than this since the last run is a no-op. */
  minNewRows: z.int().min(0).max(1e9).default(0),
  /** Made paused: it ticks once resumed. */
  paused: z.boolean().default(false),
});
export type CreateScheduleInput = z.input<typeof ZCreateScheduleInput>;

export const ZScheduleIdInput = z.strictObject({ id });
export const ZProjectSchedulesInput = z.strictObject({ projectId: id });
/** Pause, resume, remove and edit name the revision they read: a change made meanwhile is not overwritten. */
export const ZScheduleActionInput = z.strictObject({ id, revision: z.int().min(1) });
export const ZEditScheduleInput = z.strictObject({
  id,
  revision: z.int().min(1),
  name: z.string().trim().min(1).max(200).optional(),
  spec: ZScheduleSpec.optional(),
  clock: ZScheduleClock.optional(),
  maxRuns: z.int().min(1).max(100_000).nullable().optional(),
  maxComputeMinutes: z.number().positive().max(1e7).nullable().optional(),
  minNewRows: z.int().min(0).max(1e9).optional(),
});
export type EditScheduleInput = z.infer<typeof ZEditScheduleInput>;

export const RUN_OUTCOMES = ["admitting", "started", "no_op", "coalesced", "refused"] as const;
export const ZRunOutcome = z.enum(RUN_OUTCOMES);
export type RunOutcome = z.infer<typeof ZRunOutcome>;
export const RUN_TRIGGERS = ["clock", "manual", "latest"] as const;
export const ZRunTrigger = z.enum(RUN_TRIGGERS);
export type RunTrigger = z.infer<typeof ZRunTrigger>;
/** Where an admitting run is. */
export const ADMISSION_STEPS = ["observing", "importing", "profiling", "checking", "starting"] as const;
export const ZAdmissionStep = z.enum(ADMISSION_STEPS);
export type AdmissionStep = z.infer<typeof ZAdmissionStep>;

/** The source as first seen by an admitting run (ScheduleRun.observed). */
export const ZFileObservation = z.strictObject({ bytes: z.int().nonnegative(), mtimeMs: z.number(), at: z.number() });
export type FileObservation = z.infer<typeof ZFileObservation>;

export const ZScheduleRunView = z.strictObject({
  seq: z.int().positive(),
  trigger: ZRunTrigger,
  outcome: ZRunOutcome,
  /** In words: why this decision ("data unchanged since run 4"). */
  reason: z.string().nullable(),
  step: ZAdmissionStep.nullable(),
  slotAt: z.iso.datetime(),
  createdAt: z.iso.datetime(),
  dataSha256: z.string().nullable(),
  rows: z.int().nullable(),
  experimentId: z.string().nullable(),
  searchId: z.string().nullable(),
  /** The started run's experiment or search status; null for the other outcomes. */
  status: z.string().nullable(),
  /** The started run's test score against the incumbent, in words, once it finished. */
  result: z.string().nullable(),
});
export type ScheduleRunView = z.infer<typeof ZScheduleRunView>;

export const ZScheduleView = z.strictObject({
  id: z.string(),
  projectId: z.string(),
  name: z.string(),
  state: z.enum(scheduleLifecycle.states),
  reason: z.string().nullable(),
  revision: z.int(),
  source: ZScheduleSource,
  /** The computer's name. */
  computer: z.string(),
  spec: ZScheduleSpec,
  clock: ZScheduleClock,
  /** "every 6 hours", "daily at 09:30 (Europe/Berlin), weekdays". */
  clockWords: z.string(),
  maxRuns: z.int().nullable(),
  maxComputeMinutes: z.number().nullable(),
  minNewRows: z.int(),
  /** The next slot; null while paused or finished. */
  nextSlotAt: z.iso.datetime().nullable(),
  /** A tick met an active run: one run on the latest data follows it. */
  pendingLatest: z.boolean(),
  runsStarted: z.int(),
  /** Budget minutes of the started runs, counted against maxComputeMinutes. */
  computeMinutesUsed: z.number(),
  /** The last decision in words ("run 5: accuracy 0.962, better than v3's 0.955 — register?"). */
  lastResult: z.string().nullable(),
  /** Oldest first. */
  runs: z.array(ZScheduleRunView),
});
export type ScheduleView = z.infer<typeof ZScheduleView>;

/** What "Run now" answers once the tick decided (or at once when it was refused). */
export const ZRunNowAnswer = z.strictObject({
  seq: z.int().positive().nullable(),
  outcome: ZRunOutcome,
  reason: z.string().nullable(),
  experimentId: z.string().nullable(),
});
export type RunNowAnswer = z.infer<typeof ZRunNowAnswer>;


/**
 * The MCP tool list_schedules: each schedule of the bound project and its runs' decisions.
 * Results in words are left out: they quote test-partition scores, which no agent tool
 * returns (docs/agents.md); an agent reads a started run's validation through its experiment.
 */
export const ZListSchedulesToolInput = z.strictObject({});
export const ZAgentScheduleRun = ZScheduleRunView.omit({ result: true });
export const ZAgentSchedule = ZScheduleView.omit({ lastResult: true, runs: true }).extend({ runs: z.array(ZAgentScheduleRun) });
export const ZListSchedulesToolOutput = z.strictObject({ schedules: z.array(ZAgentSchedule) });
