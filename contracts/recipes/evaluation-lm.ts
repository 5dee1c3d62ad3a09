/**
 * The trusted `evaluation-lm` recipe (training/evaluation_lm): base vs LoRA adapter scored on
 * the held-out examples with the training's masking (template.py there, which llm_lora's
 * training imports), the LM counterpart of the tabular `evaluation` recipe. Its receipt is
 * the only source of "better than base"; contractSha256 says which receipts compare.
 */
import { z } from "zod";
import { ZSha256Hex, ref } from "./common";
import { bootstrapSettings, ZEvaluator, ZPairedDifference } from "./evaluation";

/** The devices a job of the evaluator or of llm-lora runs on (device.py, shared by both). */
export const LM_DEVICES = ["cpu", "cuda", "mps"] as const;
export const ZLmDevice = z.enum(LM_DEVICES);

export const ZLmScoreInput = z.strictObject({
  model: ref("output folder of llm-lora import_base (holding model/ and base.json)"),
  adapter: ref("output folder of llm-lora train (holding adapter/)"),
  data: ref("output folder of llm-lora check_data (eval.jsonl)"),
  device: ZLmDevice.default("cpu").describe("used as chosen; refused (device_unavailable) when absent, never a fallback"),
  maxLength: z.int().min(16).max(32768).default(512).describe("tokens per example; longer ones keep their start"),
  generations: z.int().min(0).max(100).default(3),
  maxNewTokens: z.int().min(1).max(4096).default(64),
  answerPattern: z.string().describe("regex with one group around the answer, e.g. '#### (\\\\S+)'").optional(),
  answerExamples: z.int().min(0).describe("prompts generated for exact match; default 20 with a pattern").optional(),
});
/** The input as a caller writes it (defaulted fields optional). */
export type LmScoreJobInput = z.input<typeof ZLmScoreInput>;

/** What makes two LM receipts comparable (identity.py); its canonical JSON hashes to contractSha256. */
export const ZLmEvaluationContract = z.strictObject({
  metric: z.literal("mean_nll_per_answer_token"),
  direction: z.literal("lower"),
  evalSetSha256: ZSha256Hex,
  baseSnapshotSha256: ZSha256Hex,
  maxLength: z.int().min(16),
  /** The masking rule's name: prompt tokens -100, answer tokens scored. */
  masking: z.string(),
  /** SHA-256 of the chat template the examples were rendered with (the model's or Trainyard's default). */
  chatTemplateSha256: ZSha256Hex,
  evaluatorVersion: z.string(),
});
export type LmEvaluationContract = z.infer<typeof ZLmEvaluationContract>;

const count = z.int().nonnegative();
/** scoring.py score without the per-example list: the same answer tokens for base and adapter. */
const ZLmScore = z.strictObject({
  meanNll: z.number().nonnegative(),
  perplexity: z.number().min(1),
  tokens: count,
  examples: z.int().positive(),
});

const share = z.number().min(0).max(1);

/** receipt.json (score.py): betterThanBase is the adapter's meanNll below the base's. */
export const ZLoraReceipt = z.strictObject({
  version: z.literal(1),
  evaluator: ZEvaluator,
  metric: z.literal("mean_nll_per_answer_token"),
  direction: z.literal("lower"),
  evalSetSha256: ZSha256Hex,
  maxLength: z.int().min(16),
  examples: z.int().positive(),
  droppedNoAnswerLeft: count,
  base: ZLmScore,
  adapter: ZLmScore,
  betterThanBase: z.boolean(),
  /** Greedy answers side by side; prompt is the last user message. */
  generations: z.array(z.strictObject({ prompt: z.string(), reference: z.string(), base: z.string(), adapter: z.string() })),
  /** Only with answerPattern: the share of prompts whose extracted answer equals the reference's. */
  exactMatch: z.strictObject({ pattern: z.string(), examples: z.int().positive(), base: share, adapter: share }).optional(),
  /** SHA-256 of adapter_model.safetensors: the adapter this receipt judged. */
  adapterSha256: ZSha256Hex,
  evaluationContract: ZLmEvaluationContract,
  contractSha256: ZSha256Hex,
});
export type LoraReceipt = z.infer<typeof ZLoraReceipt>;

const ZExampleNll = z.strictObject({ nll: z.number().nonnegative(), tokens: count });
/** per_example.json (score.py): summed NLL and answer-token count per example, in eval.jsonl order. */
export const ZLoraPerExample = z.strictObject({ base: z.array(ZExampleNll), adapter: z.array(ZExampleNll) });
export type LoraPerExample = z.infer<typeof ZLoraPerExample>;

export const ZLmHoldoutCompareInput = z.strictObject({
  model: ZLmScoreInput.shape.model,
  data: ref("output folder of llm-lora holdout_examples (eval.jsonl and eval_prompts.txt)"),
  versions: z
    .array(
      z.strictObject({
        version: z.int().positive(),
        adapter: ref("the version's export archive (its adapter files alone are read) or an adapter folder"),
        adapterSha256: ZSha256Hex.describe("the version's adapter: the SHA-256 its adapter_model.safetensors must have"),
        trainedPrompts: ref("the version's trained_prompts.txt (its exclusion evidence)"),
      }),
    )
    .min(2)
    .describe("the first two are the difference's pair (second minus first)"),
  device: ZLmScoreInput.shape.device,
  maxLength: ZLmScoreInput.shape.maxLength,
  ...bootstrapSettings,
});
export type LmHoldoutCompareJobInput = z.input<typeof ZLmHoldoutCompareInput>;

/**
 * holdout_compare.json (holdout.py): each version's mean NLL per answer token on the holdout
 * examples none of them trained or was evaluated on, and the paired-bootstrap interval of the
 * difference (second minus first: below zero, the second is better).
 */
export const ZLmHoldoutComparison = z.strictObject({
  version: z.literal(1),
  metric: z.literal("mean_nll_per_answer_token"),
  direction: z.literal("lower"),
  examples: z.int().positive(),
  excluded: z.strictObject({ total: count, byVersion: z.record(z.string(), count), noAnswerLeft: count }),
  results: z.array(z.strictObject({ version: z.int().positive(), value: z.number().nonnegative() })).min(2),
  difference: ZPairedDifference,
});
export type LmHoldoutComparison = z.infer<typeof ZLmHoldoutComparison>;

/** model/, adapter/ and eval.jsonl are read by the recipe itself, not parsed here. */
export const evaluationLm = {
  score: { input: ZLmScoreInput, outputs: { "receipt.json": ZLoraReceipt, "per_example.json": ZLoraPerExample } },
  holdout_compare: { input: ZLmHoldoutCompareInput, outputs: { "holdout_compare.json": ZLmHoldoutComparison } },
} as const;
