import { z } from "zod";
import { SEARCH_LIMITS } from "@/contracts/searches/search-spec";

/**
 * A wizard draft holds inputs and choices only (ids, column names, numbers), never data
 * bytes: an unknown field is refused (strict), not stored.
 */
export const MAX_DRAFT_BYTES = 64 * 1024;

const column = z.string().max(1000);

export const ZWizardDraftData = z
  .strictObject({
    step: z.number().int().min(0).max(10).default(0),
    targetId: z.string().max(64).nullable().default(null),
    datasetId: z.string().max(64).nullable().default(null),
    target: column.nullable().default(null),
    task: z.enum(["binary", "multiclass", "regression"]).nullable().default(null),
    metric: z.string().max(40).nullable().default(null),
    positiveClass: z.string().max(500).nullable().default(null),
    excludeColumns: z.array(column).max(10_000).default([]),
    split: z
      .strictObject({ strategy: z.enum(["random", "group", "time"]), column: column.optional() })
      .default({ strategy: "random" }),
    /** Issue codes whose recommended action the user changed (so a re-check keeps the choice). */
    decided: z.record(z.string().max(200), z.boolean()).default({}),
    mode: z.enum(["quick", "improve"]).default("quick"),
    maxMinutes: z.number().positive().max(24 * 60).default(5),
    maxTrials: z.number().int().positive().max(1000).default(10),
    /** Improve: trials run at the same time, each with an even share of the computer's CPUs. */
    parallelTrials: z.number().int().min(1).max(SEARCH_LIMITS.maxParallelTrials).default(1),
    /** Improve: a trial is chosen over the baseline only by at least this much on validation; null: any gain. */
    minUsefulGain: z.number().min(0).max(1e9).nullable().default(null),
    /** Improve: stop after this many trials in a row without a useful gain; null: never. */
    patience: z.number().int().min(1).max(100).nullable().default(null),
  });
export type TWizardDraftData = z.infer<typeof ZWizardDraftData>;

export const ZDraftGetInput = z.strictObject({ projectId: z.string().min(1).max(64) });
export const ZDraftSaveInput = z.strictObject({
  projectId: z.string().min(1).max(64),
  /** The revision the client last read; 0 when it read no draft. A stale one is a CONFLICT. */
  revision: z.number().int().nonnegative(),
  data: ZWizardDraftData,
});
export type TDraftSaveInput = z.input<typeof ZDraftSaveInput>;

export interface DraftView {
  projectId: string;
  /** 0 when there is no draft yet. */
  revision: number;
  data: TWizardDraftData;
  updatedAt: string | null;
}
