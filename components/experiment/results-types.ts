/** Shapes of the stored results (training/evaluation/README.md, training/recipes/tabular/README.md). */
export interface Receipt {
  task: string;
  primaryMetric: string;
  direction: "higher_is_better" | "lower_is_better";
  primaryValue: number | null;
  positiveClass?: string | null;
  rows?: number;
  classes?: string[];
  metrics?: Record<string, number | null>;
  confusionMatrix?: { labels: string[]; matrix: number[][] } | null;
  residuals?: { definition?: string; mean?: number; std?: number; sample?: { rowId: number; actual: number; predicted: number }[] } | null;
  worstExamples?: { rowId: number; actual: unknown; predicted: unknown; confidence: number | null; absoluteError?: number }[];
}

export interface Leaderboard {
  metric?: string;
  partition?: string;
  models?: { model: string; validationScore: number | null; fitSeconds?: number | null; stackLevel?: number }[];
}

export interface FeatureImportance {
  method?: string;
  partition?: string;
  features?: { name: string; importance: number; stddev?: number | null; pValue?: number | null }[];
}

export interface FeatureSchemaEntry {
  name: string;
  dtype?: string;
  kind?: "numeric" | "boolean" | "categorical" | "text" | "datetime" | string;
  nullable?: boolean;
  usedByModel?: boolean;
  example?: unknown;
  min?: number | null;
  max?: number | null;
  categories?: string[] | null;
}
