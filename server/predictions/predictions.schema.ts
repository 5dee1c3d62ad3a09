import { z } from "zod";

export const ZTryRowInput = z.strictObject({
  experimentId: z.string().min(1).max(64),
  /** Feature name → value as typed in the form; empty means missing. */
  values: z.record(z.string().max(1000), z.union([z.string().max(10_000), z.number(), z.boolean(), z.null()])),
});
export type TTryRowInput = z.infer<typeof ZTryRowInput>;

/** How long a prediction may take before the page says so (the model loads in a fresh process). */
export const TRY_ROW_TIMEOUT_MS = 180_000;
export const PREDICT_FILE_TIMEOUT_MS = 600_000;
/** Files for "Predict a file" are capped well below dataset uploads: they are answered in one response. */
export const PREDICT_FILE_MAX_BYTES = 50 * 1024 * 1024;

export interface TryRowResult {
  jobId: string;
  prediction: unknown;
  /** Class → probability (classification), sorted high to low; empty for regression. */
  probabilities: { label: string; probability: number }[];
  seconds: number;
}
