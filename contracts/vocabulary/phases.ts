/**
 * The four phases an experiment moves through, in order, and their names. Each chain step
 * belongs to one (server/experiments/chain-steps.ts); the page shows them as a row.
 */
import { z } from "zod";

export const PHASES = ["preparing_data", "training", "evaluating", "comparing"] as const;
export const ZPhase = z.enum(PHASES);
export type Phase = z.infer<typeof ZPhase>;

export const PHASE_LABELS: Record<Phase, string> = {
  preparing_data: "Preparing data",
  training: "Training",
  evaluating: "Evaluating",
  comparing: "Comparing",
};
