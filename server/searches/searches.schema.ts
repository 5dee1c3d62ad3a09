/** Inputs of the searches service (issue 17), validated at the router and the MCP tools. */
import { z } from "zod";
import { ZTrialParams } from "@/contracts/recipes/search";
import { SEARCH_STRATEGIES, ZSearchBudget, ZSearchSplit } from "@/contracts/searches/search-spec";
import { ZMetric, ZTask } from "@/contracts/vocabulary";

const id = z.string().min(1).max(64);
const opId = z.string().min(8).max(200);
const column = z.string().min(1).max(500);

/** What a person (or the CLI) chooses; the service derives the frozen spec from it and the dataset. */
export const ZStartSearchInput = z.strictObject({
  opId,
  projectId: id,
  datasetId: id,
  targetId: id.optional(),
  name: z.string().trim().max(200).optional(),
  target: column,
  task: ZTask,
  metric: ZMetric,
  positiveClass: z.string().max(500).nullable().default(null),
  excludeColumns: z.array(column).max(10_000).default([]),
  split: ZSearchSplit.default({ strategy: "random" }),
  seed: z.int().min(0).max(2 ** 31 - 1).default(42),
  /** Columns the data checks flagged that trials may try leaving out (a yes/no choice each in the space). */
  featureOptions: z.array(column).max(20).default([]),
  budget: ZSearchBudget,
  minUsefulGain: z.number().min(0).max(1e9).default(0),
  patience: z.int().min(1).max(100).nullable().default(null),
  strategy: z.enum(SEARCH_STRATEGIES).default("tpe"),
});
export type TStartSearchInput = z.input<typeof ZStartSearchInput>;

export const ZSearchIdInput = z.strictObject({ id });
export const ZListSearchesInput = z.strictObject({ projectId: id });
/** Pause, resume and stop name the revision they read: a stale one is a CONFLICT. */
export const ZSearchActionInput = z.strictObject({ id, revision: z.int().min(1) });

export const ZProposeInput = z.strictObject({
  /** The project the proposer is bound to: a search of another project reads as absent. */
  projectId: id,
  searchId: id,
  opId,
  /** Why this trial is worth running, in the proposer's words (shown with the trial). */
  hypothesis: z.string().trim().min(1).max(2000),
  params: ZTrialParams,
});
export type TProposeInput = z.infer<typeof ZProposeInput>;

export const ZTrialIdInput = z.strictObject({ projectId: id, trialId: id });
export const ZScopedSearchInput = z.strictObject({ projectId: id, id });
