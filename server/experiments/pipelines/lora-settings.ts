/**
 * What a fine-tuning experiment trains: the base model's source and the settings, validated
 * once at start and stored as the experiment's settings. They live beside the LoRA pipeline
 * that reads them (server/experiments may not import server/finetune, which builds on it);
 * server/finetune/finetune.schema.ts re-exports them for the service, the CLI and components.
 */
import { z } from "zod";
import { ZLoraDevice } from "@/contracts/recipes/llm-lora";

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
  /**
   * When the preflight finds the steps (epochs or maxSteps) longer than the budget: train
   * the steps that fit (the wizard's default), or refuse before training with those steps
   * as a one-tap fix (false: runs started before this setting existed, and the CLI's default).
   */
  fitToBudget: z.boolean().default(false),
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
