import type { DataIssue } from "@/contracts/recipes/data";

/** data.checks output (training/recipes/data/README.md "checks"). */
export interface ChecksResult {
  target: string;
  rows: number;
  task: "binary" | "multiclass" | "regression";
  taskReason: string;
  metric: string;
  metricDirection: string;
  metricReason: string;
  positiveClass: string | null;
  classCounts?: Record<string, number> | null;
  issues: DataIssue[];
}
