/**
 * What a fine-tuning experiment is started with and what its page, the CLI and the phone
 * read (issue 14): one typed home shared by server/finetune (the service and the `finetune`
 * tRPC router), the CLI (`trainyard finetune`) and components/finetune. The recipe's own
 * shapes (base.json, checks.json, preflight.json, training.json, receipt.json) are the
 * contracts in contracts/recipes/llm-lora.ts; this file only composes them.
 */
import { z } from "zod";
import type { TPlacement } from "@/server/experiments/placement";
import type { TSlurmAttempt } from "@/contracts/worker/slurm";
import { ZFineTuneSettings, FINETUNE_DEFAULTS, ZBaseModelSource, type TBaseModelSource, type TFineTuneSettings } from "@/server/experiments/pipelines/lora-settings";
import { type LoraBase, type LoraChecks, type LoraPreflight, type LoraReceipt, type LoraTraining } from "@/contracts/recipes/llm-lora";
import type { RunError } from "@/server/experiments/run-error";

/** How many times training stopped on a Slurm computer and went on, by why. */
export type SlurmStops = Record<TSlurmAttempt["reason"], number>;
export const NO_SLURM_STOPS: SlurmStops = { time_limit: 0, preempted: 0 };

const id = z.string().min(1).max(64);

// The settings and base-model source are the LoRA pipeline's (server/experiments may not import this folder).
export { FINETUNE_DEFAULTS, ZBaseModelSource, ZFineTuneSettings, type TBaseModelSource, type TFineTuneSettings };

export const ZStartFineTuneInput = z.strictObject({
  /** Client operation id: a double click or a retried request starts one experiment. */
  opId: z.string().min(8).max(200),
  projectId: id,
  /** A JSONL dataset (examples) of this project. */
  datasetId: id,
  /** A JSONL dataset of this project held out for evaluation; else a split of datasetId. */
  evalDatasetId: id.optional(),
  targetId: id.optional(),
  name: z.string().trim().max(200).optional(),
  settings: ZFineTuneSettings,
});
export type TStartFineTuneInput = z.input<typeof ZStartFineTuneInput>;

export const ZFineTuneIdInput = z.strictObject({ id });
/** Resume is a new attempt of the train step from its last checkpoint. */
export const ZResumeFineTuneInput = z.strictObject({ id, opId: z.string().min(8).max(200) });
/** "Try it": one prompt answered by the adapter (and the base) through a short job. */
export const ZTryItInput = z.strictObject({
  id,
  opId: z.string().min(8).max(200),
  prompt: z.string().trim().min(1).max(8000),
  maxNewTokens: z.int().min(1).max(1024).default(128),
});
export const ZTryItResultInput = z.strictObject({ id, tryId: id });

/** One point of a live or finished loss curve. */
export interface LossPoint {
  step: number;
  loss: number;
}

/** What the fine-tuning page, the CLI's --json and the phone read (finetune.get). */
export interface FineTuneView {
  experiment: {
    id: string;
    projectId: string;
    name: string;
    status: string;
    phase: string;
    reason: string | null;
    progressNote: string | null;
    targetId: string;
    targetName: string;
    /** How its computer was chosen, when it was started on "any" computer. */
    placement: TPlacement | null;
    datasetId: string;
    evalDatasetId: string | null;
    settings: TFineTuneSettings;
    startedAt: string;
    endedAt: string | null;
  };
  /** The step now running, in words ("Training the adapter"), null once ended. */
  step: { name: string; label: string } | null;
  /** While a step waits its turn on the computer: for what, and which job holds it ("Waiting for CPUs: the training “…” is using them (…)."). */
  waiting: string | null;
  /** Every step of the chain with its job once it has one (`trainyard experiments logs` reads their logs). */
  steps: { step: string; label: string; jobId: string | null; state: string | null }[];
  /** For a run that failed or timed out: code, message, fix and the step that failed (server/experiments/run-error.ts). */
  error: RunError | null;
  /** base.json without its file list, once the import succeeded. */
  base: Omit<LoraBase, "files"> | null;
  checks: LoraChecks | null;
  preflight: LoraPreflight | null;
  /** While training runs (from its events) and after (training.json wins). */
  training: {
    step: number;
    plannedSteps: number | null;
    trainLoss: LossPoint[];
    evalLoss: LossPoint[];
    tokensPerSecond: number | null;
    etaSeconds: number | null;
    /** Set when the attempt continued from a checkpoint. */
    resumedFromStep: number | null;
    /** On a Slurm computer: how many times training stopped there and went on, by why (time limit: as a new Slurm job; preempted: the same one, requeued). */
    slurmStops: SlurmStops;
    final: LoraTraining | null;
  } | null;
  /** The trusted receipt: base vs adapter on the same evaluation examples. */
  receipt: LoraReceipt | null;
  export: { sha256: string; bytes: number; downloadUrl: string } | null;
  /** True when training stopped with a checkpoint (cancelled, crashed, budget), no attempt resumed it yet, and Resume can continue it. */
  resumable: boolean;
  /** The experiment this one continues from, and the one that continued this one (at most one). */
  resumedFrom: { id: string; name: string } | null;
  resumedBy: { id: string; name: string } | null;
}

/** finetune.tryItResult: the answer once the short job ended. */
export type TryItResult =
  | { state: "running" }
  | { state: "succeeded"; prompt: string; adapter: string; base: string; seconds: number }
  | { state: "failed"; message: string };
