/**
 * The shapes of the search tools (list_searches, get_search, get_validation_results,
 * propose_experiment, cancel_trial, promote_version): inputs published as JSON Schema,
 * outputs as strict allow-lists like tool-shapes.ts. They carry validation scores only:
 * the final test scoring of a search, and the test receipts a promotion is judged on,
 * have no field here, so they cannot reach an agent.
 */
import { z } from "zod";
import { ZParamValue } from "@/contracts/recipes/search";

const ZId = z.string().min(1).max(64);
const ZDirection = z.enum(["higher_is_better", "lower_is_better"]);

// ---- inputs ---------------------------------------------------------------------------

export const ZListSearchesInput = z.strictObject({});
export const ZGetSearchInput = z.strictObject({ searchId: ZId });
export const ZGetValidationResultsInput = z.strictObject({ searchId: ZId });

export const ZProposeExperimentInput = z.strictObject({
  searchId: ZId.describe("a search of this project that is running or paused (list_searches)"),
  hypothesis: z.string().trim().min(1).max(2000).describe("why this trial is worth running, in a sentence or two; shown with the trial"),
  params: z
    .record(z.string().min(1).max(100), ZParamValue)
    .describe('one value for every parameter of the space that applies to the chosen family, e.g. {"family":"GBM","GBM.learning_rate":0.05,"GBM.num_leaves":31,"GBM.min_data_in_leaf":10}'),
  opId: z
    .string()
    .min(8)
    .max(200)
    .optional()
    .describe("any unique string of 8+ characters; the same opId again returns the first answer instead of proposing twice (omitted: a fresh one)"),
});

export const ZCancelTrialInput = z.strictObject({ trialId: ZId.describe("a trial id from get_search") });

export const ZPromoteVersionInput = z.strictObject({
  modelId: ZId.describe("a model of this project (list_models)"),
  version: z.int().positive().describe("the version number within the model"),
  expectedRevision: z.int().positive().describe("the model's revision from list_models: if someone moved it since, the promotion is refused"),
  reason: z.string().trim().min(1).max(1000).describe("why this version should be selected; recorded in the model's history"),
});

// ---- outputs --------------------------------------------------------------------------

export const ZSearchBudgetLeft = z.strictObject({
  maxTrials: z.int(),
  maxWallMinutes: z.number(),
  perTrialMinutes: z.number(),
  /** Trials that run at the same time (1: one after another). */
  parallelTrials: z.int(),
  /** Running time used so far (paused time does not count). */
  wallUsedSeconds: z.number(),
  /** Kept back from the last trial for the final scoring. */
  finalReserveSeconds: z.number(),
  trialsBooked: z.int(),
  /** Accepted proposals not booked yet: they count against maxTrials. */
  proposalsWaiting: z.int(),
  /** Trials that may still be proposed: maxTrials minus booked and waiting. */
  trialsLeft: z.int(),
});

export const ZSearchOutcomeView = z.strictObject({
  kind: z.enum(["candidate", "keep_baseline"]),
  /** The chosen (or best) trial, on validation. */
  trialNumber: z.int().nullable(),
  validationValue: z.number().nullable(),
  baselineValidationValue: z.number().nullable(),
  gain: z.number().nullable(),
  /** Why the baseline was kept; null for a candidate. */
  reason: z.string().nullable(),
  /** Why the search stopped booking trials. */
  ended: z.string(),
});

export const ZSearchSummary = z.strictObject({
  id: z.string(),
  name: z.string(),
  status: z.string(),
  /** Why it is in this status (stopped, failed, …). */
  reason: z.string().nullable(),
  strategy: z.enum(["tpe", "agents"]),
  datasetId: z.string(),
  target: z.string(),
  task: z.string(),
  metric: z.string(),
  direction: ZDirection,
  /** A trial beats the baseline only by at least this much, in the metric's units. */
  minUsefulGain: z.number(),
  budget: ZSearchBudgetLeft,
  best: z.strictObject({ trialNumber: z.int(), validationValue: z.number() }).nullable(),
  /** What the search chose on validation once it ended; null before. */
  outcome: ZSearchOutcomeView.nullable(),
  /** Trials in the ledger, rejected proposals included. */
  trialCount: z.int(),
  createdAt: z.string(),
  endedAt: z.string().nullable(),
});
export const ZListSearchesOutput = z.strictObject({ searches: z.array(ZSearchSummary) });

export const ZSpaceParamView = z.strictObject({
  name: z.string(),
  kind: z.enum(["float", "int", "categorical"]),
  low: z.number().nullable(),
  high: z.number().nullable(),
  log: z.boolean().nullable(),
  choices: z.array(ZParamValue).nullable(),
  /** Applies only when another parameter holds one of these values. */
  when: z.strictObject({ param: z.string(), in: z.array(ZParamValue) }).nullable(),
});

export const ZTrialSummary = z.strictObject({
  id: z.string(),
  number: z.int(),
  status: z.string(),
  proposer: z.strictObject({ kind: z.enum(["planner", "agent"]), name: z.string().nullable() }),
  hypothesis: z.string().nullable(),
  params: z.record(z.string(), ZParamValue),
  /** Every reason a rejected proposal was refused. */
  rejection: z.array(z.string()),
  reservedSeconds: z.number(),
  usedSeconds: z.number().nullable(),
  /** The trial's score on the validation partition (the search's metric). */
  validationValue: z.number().nullable(),
  reason: z.string().nullable(),
  createdAt: z.string(),
  endedAt: z.string().nullable(),
});

export const ZSearchDetail = z.strictObject({
  ...ZSearchSummary.shape,
  revision: z.int(),
  settings: z.strictObject({
    positiveClass: z.string().nullable(),
    excludeColumns: z.array(z.string()),
    split: z.strictObject({ strategy: z.string(), column: z.string().optional() }),
    seed: z.int(),
    /** Stop after this many finished trials in a row without a useful gain; null: never. */
    patience: z.int().nullable(),
  }),
  space: z.array(ZSpaceParamView),
  trials: z.array(ZTrialSummary),
});

export const ZValidationResultsOutput = z.strictObject({
  searchId: z.string(),
  partition: z.literal("validation"),
  metric: z.string(),
  direction: ZDirection,
  minUsefulGain: z.number(),
  /** The baseline's validation score; known once the first trial has been scored. */
  baselineValidationValue: z.number().nullable(),
  baselineNote: z.string().nullable(),
  best: z.strictObject({ trialNumber: z.int(), validationValue: z.number() }).nullable(),
  trials: z.array(
    z.strictObject({
      trialId: z.string(),
      number: z.int(),
      status: z.string(),
      proposer: z.enum(["planner", "agent"]),
      params: z.record(z.string(), ZParamValue),
      validationValue: z.number().nullable(),
    }),
  ),
});

export const ZProposeExperimentOutput = z.strictObject({
  accepted: z.boolean(),
  trialId: z.string(),
  number: z.int(),
  /** The accepted trial's status (proposed until the search books it); null when rejected. */
  status: z.string().nullable(),
  /** Every reason a rejected proposal was refused; empty when accepted. */
  reasons: z.array(z.string()),
  next: z.string(),
});

export const ZCancelTrialOutput = z.strictObject({ trialId: z.string(), number: z.int(), status: z.string() });

export const ZPromoteVersionOutput = z.strictObject({
  modelId: z.string(),
  modelName: z.string(),
  alias: z.string(),
  version: z.int(),
  /** False when the version already held the alias. */
  moved: z.boolean(),
  /** The model's revision after the promotion. */
  revision: z.int(),
  verdict: z.enum(["first", "better", "already_selected"]),
  /** The gate's decision in words, without the test scores it compared. */
  decision: z.string(),
});

export type SearchSummary = z.infer<typeof ZSearchSummary>;
export type SearchDetail = z.infer<typeof ZSearchDetail>;
export type SpaceParamView = z.infer<typeof ZSpaceParamView>;
