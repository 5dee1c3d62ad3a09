import { z } from "zod";
import { ZTask } from "@/contracts/vocabulary";
import { ZSplitChoice } from "./experiments.schema";

const column = z.string().min(1).max(500);

/** experiments.readiness: the settings chosen so far in the wizard (target and task at least). */
export const ZReadinessInput = z.strictObject({
  datasetId: z.string().min(1).max(64),
  target: column,
  task: ZTask,
  excludeColumns: z.array(column).max(10_000).default([]),
  split: ZSplitChoice.default({ strategy: "random" }),
});
export type TReadinessInput = z.input<typeof ZReadinessInput>;

/** experiments.targetOptions: which columns to offer as the column to predict. */
export const ZTargetOptionsInput = z.strictObject({ datasetId: z.string().min(1).max(64) });
