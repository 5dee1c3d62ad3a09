/**
 * What a fine-tuning experiment is started with and what its page, the CLI and the phone
 * read (issue 14): one typed home shared by server/finetune (the service and the `finetune`
 * tRPC router), the CLI (`trainyard finetune`) and components/finetune. The recipe's own
 * shapes (base.json, checks.json, preflight.json, training.json, receipt.json) are the
 * contracts in contracts/recipes/llm-lora.ts; this file only composes them.
 */
import { z } from "zod";
import { ZLoraDevice, type LoraBase, type LoraChecks, type LoraPreflight, type LoraReceipt, type LoraTraining } from "@/contracts/recipes/llm-lora";

const id = z.string().min(1).max(64);
const sha256 = z.string().regex(/^[0-9a-f]{64}$/);

/**
 * The base model: a folder (Hugging Face format) or a .gguf file on the training computer,
 * inside its allowed roots; or what the user uploaded (the CLI's `--model`, the browser's
 * file picker): one .gguf file, or a folder sent file by file, each stored once by hash.
 */
export const ZBaseModelSource = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("path"), path: z.string().min(1).max(4096) }),
  z.strictObject({ kind: z.literal("gguf_upload"), fileName: z.string().min(1).max(255), sha256 }),
  z.strictObject({
    kind: z.literal("folder_upload"),
    name: z.string().min(1).max(255),
    files: z.array(z.strictObject({ path: z.string().min(1).max(1024), sha256 })).min(1).max(10_000),
  }),
]);
export type TBaseModelSource = z.infer<typeof ZBaseModelSource>;

function isRegexWithOneGroup(p: string): boolean {
  try {
    // A group count check without running the pattern: an alternation with an empty branch matches "" once.
    return new RegExp(`${p}|`).exec("")!.length - 1 >= 1;
  } catch {
    return false;
  }
}

/** The recommended defaults (the wizard's "Recommended"; Advanced changes them). */
export const FINETUNE_DEFAULTS = {
  rank: 16,
  learningRate: 2e-4,
  maxLength: 512,
  batchSize: 4,
  epochs: 1,
  maxMinutes: 15,
  evalFraction: 0.1,
} as const;

/** What a fine-tuning experiment trains: validated once at start and stored as its settings. */
export const ZFineTuneSettings = z.strictObject({
  base: ZBaseModelSource,
  /** Used when no evaluation file is given: a seeded split of whole prompt groups. */
  evalFraction: z.number().min(0.01).max(0.5).default(FINETUNE_DEFAULTS.evalFraction),
  seed: z.int().min(0).max(2 ** 31 - 1).default(0),
  device: ZLoraDevice.default("cpu"),
  rank: z.int().min(1).max(1024).default(FINETUNE_DEFAULTS.rank),
  alpha: z.int().min(1).max(4096).optional(),
  learningRate: z.number().min(1e-7).max(1).default(FINETUNE_DEFAULTS.learningRate),
  maxLength: z.int().min(16).max(32768).default(FINETUNE_DEFAULTS.maxLength),
  batchSize: z.int().min(1).max(512).default(FINETUNE_DEFAULTS.batchSize),
  epochs: z.number().min(0.01).max(100).default(FINETUNE_DEFAULTS.epochs),
  maxSteps: z.int().min(1).max(1_000_000).optional(),
  /** The whole experiment's budget; training gets what the import, checks and preflight leave. */
  maxMinutes: z.number().positive().max(24 * 60).default(FINETUNE_DEFAULTS.maxMinutes),
  /** A regex with one group around the answer (e.g. `#### (\S+)`): exact match for base and adapter. */
  answerPattern: z
    .string()
    .min(1)
    .max(500)
    .refine(isRegexWithOneGroup, "The answer pattern must be a regular expression with one group around the answer, e.g. #### (\\S+).")
    .optional(),
});
export type TFineTuneSettings = z.infer<typeof ZFineTuneSettings>;

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
    datasetId: string;
    evalDatasetId: string | null;
    settings: TFineTuneSettings;
    startedAt: string;
    endedAt: string | null;
  };
  /** The step now running, in words ("Training the adapter"), null once ended. */
  step: { name: string; label: string } | null;
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
    final: LoraTraining | null;
  } | null;
  /** The trusted receipt: base vs adapter on the same evaluation examples. */
  receipt: LoraReceipt | null;
  export: { sha256: string; bytes: number; downloadUrl: string } | null;
  /** True when training stopped with a checkpoint (cancelled, crashed, budget) and Resume can continue it. */
  resumable: boolean;
}

/** finetune.tryItResult: the answer once the short job ended. */
export type TryItResult =
  | { state: "running" }
  | { state: "succeeded"; prompt: string; adapter: string; base: string; seconds: number }
  | { state: "failed"; message: string };
