/**
 * Every shape an agent tool (server/mcp) takes and answers, in one home: the input schemas
 * the MCP server publishes as each tool's JSON Schema, and the output shapes its answers
 * are parsed with before they leave. Outputs are strict allow-lists: a field that is not
 * named here never reaches an agent, so a test-partition score added to an API view later
 * cannot leak through a tool by accident (the parse refuses it). Test scores never appear
 * in any shape below; validation scores are AutoGluon's, on the validation partition.
 */
import { z } from "zod";

const ZId = z.string().min(1).max(64);

/** The most lines get_job_logs returns in one answer, whatever the caller asks. */
export const MAX_LOG_LINES = 500;
/** Longer lines are cut to this many characters (a progress bar redrawn without newlines). */
export const MAX_LOG_LINE_CHARS = 2000;
/** The most experiments compare_experiments puts side by side. */
export const MAX_COMPARED = 10;
/** The most experiments list_experiments returns, newest first. */
export const MAX_LISTED = 200;

// ---- inputs ---------------------------------------------------------------------------

export const ZDescribeInputsInput = z.strictObject({
  datasetId: ZId.optional().describe("a dataset of this project; omitted: every dataset of the project"),
  target: z
    .string()
    .min(1)
    .max(1000)
    .optional()
    .describe("a column: adds the data checks already run for it (issues, suggested task and metric)"),
});
export const ZListExperimentsInput = z.strictObject({
  limit: z.int().min(1).max(MAX_LISTED).default(50).describe(`newest first, at most ${MAX_LISTED}`),
});
export const ZGetExperimentInput = z.strictObject({ experimentId: ZId });
export const ZGetJobLogsInput = z.strictObject({
  experimentId: ZId,
  step: z.string().min(1).max(40).optional().describe("a step name from get_experiment (train, split, …); omitted: the latest step that has a job"),
  maxLines: z.int().min(1).max(MAX_LOG_LINES).default(100).describe(`the last lines of the log, at most ${MAX_LOG_LINES}`),
});
export const ZCompareExperimentsInput = z.strictObject({
  experimentIds: z.array(ZId).min(2).max(MAX_COMPARED),
});
export const ZListModelsInput = z.strictObject({});

// ---- outputs --------------------------------------------------------------------------

const ZValueCount = z.strictObject({ value: z.string(), count: z.int() });

export const ZColumnStats = z.strictObject({
  name: z.string(),
  type: z.string(),
  dtype: z.string(),
  missing: z.int(),
  distinct: z.int(),
  min: z.union([z.number(), z.string()]).nullable(),
  max: z.union([z.number(), z.string()]).nullable(),
  mean: z.number().nullable(),
  std: z.number().nullable(),
  /** The most common values that occur at least MIN_VALUE_COUNT times; none for id-like and text columns. */
  commonValues: z.array(ZValueCount),
});

export const ZDataIssueSummary = z.strictObject({
  code: z.string(),
  severity: z.string(),
  columns: z.array(z.string()),
  message: z.string(),
  recommendedAction: z.string(),
});

export const ZChecksSummary = z.strictObject({
  target: z.string(),
  status: z.enum(["running", "ready", "failed"]),
  task: z.string().nullable(),
  metric: z.string().nullable(),
  metricDirection: z.string().nullable(),
  labelledRows: z.int().nullable(),
  classCounts: z.record(z.string(), z.int()).nullable(),
  issues: z.array(ZDataIssueSummary),
});

export const ZDatasetDescription = z.strictObject({
  id: z.string(),
  name: z.string(),
  kind: z.enum(["table", "examples"]),
  status: z.string(),
  bytes: z.number(),
  /** Data rows of a table; usable examples of a file of examples. */
  rowCount: z.int().nullable(),
  columnCount: z.int().nullable(),
  duplicateRows: z.int().nullable(),
  createdAt: z.string(),
  columns: z.array(ZColumnStats),
  /** The data checks for the requested target; null when none were run (the wizard runs them) or no target was named. */
  checks: ZChecksSummary.nullable(),
});
export const ZDescribeInputsOutput = z.strictObject({ datasets: z.array(ZDatasetDescription) });

export const ZExperimentSummary = z.strictObject({
  id: z.string(),
  name: z.string(),
  kind: z.enum(["tabular", "finetune"]),
  status: z.string(),
  phase: z.string(),
  /** While running, what it does; once ended, why. */
  note: z.string().nullable(),
  task: z.string(),
  metric: z.string(),
  target: z.string(),
  mode: z.string(),
  createdAt: z.string(),
  endedAt: z.string().nullable(),
  seconds: z.number(),
});
export const ZListExperimentsOutput = z.strictObject({ experiments: z.array(ZExperimentSummary), total: z.int() });

export const ZValidationModel = z.strictObject({
  model: z.string(),
  validationScore: z.number().nullable(),
  fitSeconds: z.number().nullable(),
  stackLevel: z.int(),
});

/** What training learned on the validation partition (training.json, leaderboard.json, feature_importance.json). */
export const ZValidation = z.strictObject({
  partition: z.literal("validation"),
  metric: z.string(),
  direction: z.enum(["higher_is_better", "lower_is_better"]),
  bestModel: z.string(),
  /** The best model's score in the metric's own units. */
  validationScore: z.number().nullable(),
  trainRows: z.int(),
  validationRows: z.int(),
  models: z.array(ZValidationModel),
  featureImportance: z.array(z.strictObject({ name: z.string(), importance: z.number().nullable(), stddev: z.number().nullable() })).nullable(),
});

export const ZStepSummary = z.strictObject({
  step: z.string(),
  label: z.string(),
  jobId: z.string().nullable(),
  state: z.string().nullable(),
});

export const ZExperimentDetail = z.strictObject({
  ...ZExperimentSummary.shape,
  datasetId: z.string(),
  settings: z.strictObject({
    target: z.string(),
    task: z.string(),
    metric: z.string(),
    positiveClass: z.string().nullable(),
    excludeColumns: z.array(z.string()),
    split: z.strictObject({ strategy: z.string(), column: z.string().optional() }),
    mode: z.string(),
    maxMinutes: z.number(),
    seed: z.int(),
  }).nullable(),
  budgetSeconds: z.number().nullable(),
  steps: z.array(ZStepSummary),
  /** null until training succeeded, and for a fine-tune (its held-out examples are the ones its final score uses). */
  validation: ZValidation.nullable(),
  validationNote: z.string().nullable(),
});

export const ZGetJobLogsOutput = z.strictObject({
  experimentId: z.string(),
  step: z.string(),
  jobId: z.string(),
  state: z.string().nullable(),
  lines: z.array(z.string()),
  /** Earlier lines exist that this answer left out. */
  truncated: z.boolean(),
  /** The job has ended: no more lines will come. */
  eof: z.boolean(),
});

export const ZCompareExperimentsOutput = z.strictObject({
  experiments: z.array(
    z.strictObject({
      id: z.string(),
      name: z.string(),
      status: z.string(),
      metric: z.string(),
      direction: z.enum(["higher_is_better", "lower_is_better"]).nullable(),
      target: z.string(),
      mode: z.string(),
      datasetId: z.string().nullable(),
      bestModel: z.string().nullable(),
      validationScore: z.number().nullable(),
      validationRows: z.int().nullable(),
    }),
  ),
  /** True when every experiment scored the same metric on the same dataset and target; otherwise the scores do not compare. */
  comparable: z.boolean(),
  note: z.string(),
});

export const ZModelVersionSummary = z.strictObject({
  number: z.int(),
  status: z.string(),
  experimentId: z.string(),
  primaryMetric: z.string(),
  createdAt: z.string(),
  aliases: z.array(z.string()),
});
export const ZListModelsOutput = z.strictObject({
  models: z.array(
    z.strictObject({
      id: z.string(),
      name: z.string(),
      /** Moves with every alias change: promote_version names the revision it decided on. */
      revision: z.int(),
      createdAt: z.string(),
      aliases: z.array(z.strictObject({ name: z.string(), version: z.int() })),
      versions: z.array(ZModelVersionSummary),
    }),
  ),
});

export type DatasetDescription = z.infer<typeof ZDatasetDescription>;
export type ColumnStats = z.infer<typeof ZColumnStats>;
export type ChecksSummary = z.infer<typeof ZChecksSummary>;
export type ExperimentSummary = z.infer<typeof ZExperimentSummary>;
export type ExperimentDetail = z.infer<typeof ZExperimentDetail>;
export type Validation = z.infer<typeof ZValidation>;
