/**
 * What a search is, frozen when it starts (issue 17): the objective, the data and split it
 * trains on, the space it explores, its budget and patience. Changing any of these is a new
 * search, never a retroactive claim about an old one, so the row stores this once and
 * nothing updates it.
 */
import { z } from "zod";
import { ZDirection } from "../recipes/common";
import { ZSearchSpace } from "../recipes/search";
import { ZMetric, ZTask } from "../vocabulary";

export const SEARCH_LIMITS = {
  maxTrials: 200,
  maxWallMinutes: 24 * 60,
  /** A trial shorter than this cannot fit AutoGluon's start, a fit and its validation scoring. */
  minTrialSeconds: 45,
  maxPatience: 100,
  /** Trials a search runs at once: each takes its share of the computer's CPUs. */
  maxParallelTrials: 8,
} as const;

export const ZSearchBudget = z
  .strictObject({
    maxTrials: z.int().min(1).max(SEARCH_LIMITS.maxTrials),
    /** The whole search, final test scoring included; paused time does not count. */
    maxWallMinutes: z.number().positive().max(SEARCH_LIMITS.maxWallMinutes),
    /** One trial's limit: its train, validation predict and score. */
    perTrialMinutes: z.number().positive().max(SEARCH_LIMITS.maxWallMinutes),
    /**
     * Trials booked and running at the same time, each with its own booking against the
     * wall budget and an even share of the computer's CPUs. 1: one after another.
     */
    parallelTrials: z.int().min(1).max(SEARCH_LIMITS.maxParallelTrials).default(1),
  })
  .superRefine((b, ctx) => {
    if (b.perTrialMinutes * 60 < SEARCH_LIMITS.minTrialSeconds) {
      ctx.addIssue({ code: "custom", path: ["perTrialMinutes"], message: `A trial needs at least ${SEARCH_LIMITS.minTrialSeconds} s.` });
    }
    if (b.perTrialMinutes > b.maxWallMinutes) ctx.addIssue({ code: "custom", path: ["perTrialMinutes"], message: "A trial cannot be longer than the whole search." });
  });
export type SearchBudget = z.infer<typeof ZSearchBudget>;

/**
 * One trial's limit when none is given: an even share of the budget over the first few
 * rounds of trials (at most 4, so a long search still gives each trial room; a round is
 * `parallelTrials` trials at once), never under a minute and never past the whole search.
 * The wizard, `trainyard train --mode improve` and scheduled searches all use it.
 */
export function trialMinutesFor(maxMinutes: number, maxTrials: number, parallelTrials = 1): number {
  const rounds = Math.ceil(Math.max(1, maxTrials) / Math.max(1, parallelTrials));
  const share = maxMinutes / Math.min(rounds, 4);
  return Math.min(maxMinutes, Math.max(1, Math.round(share * 10) / 10));
}

export const ZSearchObjective = z.strictObject({
  metric: ZMetric,
  direction: ZDirection,
  /** A trial counts as better (than the baseline, or than the best so far for patience) only by at least this much. */
  minUsefulGain: z.number().min(0).max(1e9),
});
export type SearchObjective = z.infer<typeof ZSearchObjective>;

const column = z.string().min(1).max(500);
export const ZSearchSplit = z.discriminatedUnion("strategy", [
  z.strictObject({ strategy: z.literal("random") }),
  z.strictObject({ strategy: z.literal("group"), column }),
  z.strictObject({ strategy: z.literal("time"), column }),
]);

/** Who proposes trials: Optuna's TPE over the space (agents may add proposals), or agents only. */
export const SEARCH_STRATEGIES = ["tpe", "agents"] as const;

export const ZSearchSpec = z.strictObject({
  objective: ZSearchObjective,
  target: column,
  task: ZTask,
  positiveClass: z.string().max(500).nullable(),
  excludeColumns: z.array(column).max(10_000),
  split: ZSearchSplit,
  /**
   * Seeds the split and the sampler: the same spec on the same snapshot proposes the same
   * trials (with trials at once, the random first ones; later ones depend on which had finished).
   */
  seed: z.int().min(0).max(2 ** 31 - 1),
  space: ZSearchSpace,
  /**
   * Columns the data checks flagged that a trial may leave out: each is a yes/no
   * parameter of the space (`param`), and a trial whose value is true trains without it.
   */
  featureOptions: z.array(z.strictObject({ param: z.string().regex(/^drop\.[\w.]{1,90}$/), column })).max(20).default([]),
  budget: ZSearchBudget,
  /** Stop after this many finished trials in a row without a useful gain over the best so far; null: never. */
  patience: z.int().min(1).max(SEARCH_LIMITS.maxPatience).nullable(),
  strategy: z.enum(SEARCH_STRATEGIES),
});
export type SearchSpec = z.infer<typeof ZSearchSpec>;

/** Where a trial's settings came from. */
export const ZProposer = z.discriminatedUnion("kind", [
  z.strictObject({
    kind: z.literal("planner"),
    sampler: z.enum(["random", "tpe"]),
    /** The round of trials it was planned with, on a computer that queues in Slurm (server/searches/search-rounds.ts). */
    round: z.strictObject({ first: z.int().min(1), size: z.int().min(1).max(2 * SEARCH_LIMITS.maxParallelTrials) }).optional(),
  }),
  z.strictObject({ kind: z.literal("agent"), name: z.string().max(200) }),
]);
export type Proposer = z.infer<typeof ZProposer>;
