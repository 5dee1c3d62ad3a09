/** The prediction tasks Trainyard trains, and their names for people. */
import { z } from "zod";

export const TASKS = ["binary", "multiclass", "regression"] as const;
export const ZTask = z.enum(TASKS);
export type Task = z.infer<typeof ZTask>;

export const TASK_LABELS: Record<Task, string> = {
  binary: "Binary classification",
  multiclass: "Multiclass classification",
  regression: "Regression",
};
