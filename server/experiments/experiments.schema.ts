import { z } from "zod";
import { metricFits, ZMetric, ZTask } from "@/contracts/vocabulary";
import { MODEL_FAMILIES } from "@/contracts/recipes/tabular";

export const MODES = ["quick", "improve"] as const;

/**
 * Which pipeline an experiment runs (chain-advance.ts pipelineOf): a tabular training, a
 * LoRA fine-tune, one trial of a search, or a search's keep-the-baseline test scoring.
 */
export const EXPERIMENT_KINDS = ["tabular", "finetune", "search_trial", "search_baseline"] as const;
export type ExperimentKind = (typeof EXPERIMENT_KINDS)[number];
/** Kinds that are parts of a search, read through it (server/searches), never listed alone. */
export const SEARCH_PART_KINDS = ["search_trial", "search_baseline"] as const satisfies readonly ExperimentKind[];

/** Default whole-experiment budget of the quick mode (DESIGN "Job lifecycle": it covers the chain). */
export const QUICK_DEFAULT_MINUTES = 5;
export const MAX_MINUTES = 24 * 60;

const column = z.string().min(1).max(500);

export const ZSplitChoice = z.discriminatedUnion("strategy", [
  z.strictObject({ strategy: z.literal("random") }),
  z.strictObject({ strategy: z.literal("group"), column }),
  z.strictObject({ strategy: z.literal("time"), column }),
]);
export type TSplitChoice = z.infer<typeof ZSplitChoice>;

/** What an experiment trains: validated once at start and stored as its settings. */
export const ZExperimentSettings = z
  .strictObject({
    target: column,
    task: ZTask,
    metric: ZMetric,
    positiveClass: z.string().max(500).nullable().default(null),
    excludeColumns: z.array(column).max(10_000).default([]),
    split: ZSplitChoice.default({ strategy: "random" }),
    mode: z.enum(MODES).default("quick"),
    maxMinutes: z.number().positive().max(MAX_MINUTES).default(QUICK_DEFAULT_MINUTES),
    maxTrials: z.number().int().positive().max(1000).default(10),
    seed: z.number().int().min(0).max(2 ** 31 - 1).default(42),
    /**
     * AutoGluon hyperparameters keyed by model family, replacing the preset's: a search's
     * trial settings (server/searches), and the final model it trains from them.
     */
    hyperparameters: z.partialRecord(z.enum(MODEL_FAMILIES), z.record(z.string().max(100), z.union([z.string().max(200), z.number(), z.boolean()]))).optional(),
    /**
     * A search's final experiment scores the winning trial's model instead of training
     * again: the operation id of that trial's train job, whose output the train step reuses.
     */
    reuseTrainOpId: z.string().min(8).max(300).optional(),
    /** What the user chose in the data checks, for the record ("left out total: leakage_suspect"). */
    appliedActions: z.array(z.string().max(1000)).max(200).default([]),
    /** The data issues the checks found when the experiment was set up. */
    dataIssues: z
      .array(z.strictObject({ code: z.string().max(100), columns: z.array(z.string().max(500)).max(1000), severity: z.string().max(20) }))
      .max(200)
      .default([]),
  })
  .superRefine((s, ctx) => {
    if (!metricFits(s.task, s.metric)) ctx.addIssue({ code: "custom", path: ["metric"], message: `${s.metric} does not fit a ${s.task} task.` });
    if (s.excludeColumns.includes(s.target)) {
      ctx.addIssue({ code: "custom", path: ["excludeColumns"], message: "The target column cannot be left out." });
    }
    if (s.split.strategy !== "random" && s.split.column === s.target) {
      ctx.addIssue({ code: "custom", path: ["split"], message: "The split column cannot be the target." });
    }
  });
export type TExperimentSettings = z.infer<typeof ZExperimentSettings>;

export const ZStartExperimentInput = z.strictObject({
  /** Client operation id: a double click or a retried request starts one experiment. */
  opId: z.string().min(8).max(200),
  projectId: z.string().min(1).max(64),
  datasetId: z.string().min(1).max(64),
  targetId: z.string().min(1).max(64).optional(),
  name: z.string().trim().max(200).optional(),
  settings: ZExperimentSettings,
});
export type TStartExperimentInput = z.input<typeof ZStartExperimentInput>;

export const ZExperimentIdInput = z.strictObject({ id: z.string().min(1).max(64) });
export const ZListExperimentsInput = z.strictObject({
  projectId: z.string().min(1).max(64),
  status: z.array(z.string().max(20)).max(10).optional(),
});
export const ZRerunInput = z.strictObject({ id: z.string().min(1).max(64), opId: z.string().min(8).max(200) });
