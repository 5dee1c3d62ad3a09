/**
 * The `llm-lora` recipe (training/recipes/llm_lora: transformers + PEFT + TRL): profile JSONL
 * examples, import a base model, check the examples against it, preflight the device, train a
 * LoRA adapter (scored against its base by the trusted evaluation-lm recipe: evaluation-lm.ts),
 * export a verified archive, answer one prompt ("Try it"), and merge the adapter into the
 * base. Inputs mirror the Python readers (fields.py, setup.py, each job's module); the
 * outputs are what each job's module writes.
 */
import { z } from "zod";
import { ZSha256Hex, ref } from "./common";
import { ZExportSummary } from "./export";

// The device rule and the receipt belong to the trusted evaluator (evaluation-lm.ts); named
// here too, since training uses the same devices and the fine-tuning pages read the receipt.
import { LM_DEVICES, ZLmDevice } from "./evaluation-lm";
export { ZLoraPerExample, ZLoraReceipt, type LoraPerExample, type LoraReceipt } from "./evaluation-lm";
export const LORA_DEVICES = LM_DEVICES;
export const ZLoraDevice = ZLmDevice;

const model = ref("output folder of import_base (holding model/ and base.json)");
const checkedData = ref("output folder of check_data (train.jsonl, eval.jsonl)");
const device = ZLoraDevice.default("cpu").describe("used as chosen; refused (device_unavailable) when absent, never a fallback");
const maxLength = z.int().min(16).max(32768).default(512).describe("tokens per example; longer ones keep their start");
const seed = z.int().min(0).default(0);

/** LoRA and run-length fields preflight and train read alike (setup.py LoraSettings, train.py _settings). */
const loraRun = {
  model,
  data: checkedData,
  device,
  maxLength,
  rank: z.int().min(1).max(1024).default(16),
  alpha: z.int().min(1).describe("default: 2 x rank").optional(),
  dropout: z.number().min(0).max(0.9).default(0.05),
  targetModules: z.union([z.literal("all-linear"), z.array(z.string()).min(1)]).default("all-linear"),
  batchSize: z.int().min(1).max(512).default(4),
  gradientAccumulation: z.int().min(1).max(256).default(1),
  epochs: z.number().min(0.01).max(100).default(1),
  maxSteps: z.int().min(1).describe("overrides epochs").optional(),
  maxMinutes: z.number().min(0.05).describe("wall-time budget").optional(),
};

const importName = z.string().describe("display name; default: the folder or file name").optional();

/** One file of a model folder uploaded file by file: where it goes in the folder, and its blob. */
export const ZLoraUploadedFile = z.strictObject({
  path: z
    .string()
    .min(1)
    .max(1024)
    .refine((p) => !p.startsWith("/") && !p.includes("\\") && p.split("/").every((part) => part !== "" && part !== "." && part !== ".."), "a relative path inside the folder (no '..', not absolute)")
    .describe("relative path inside the model folder, e.g. config.json"),
  file: ref("the file's blob"),
});

/**
 * Exactly one of `source` (a folder or GGUF on the training computer, or the blob of an
 * uploaded .gguf: GGUF is recognised by its magic bytes, not its name) or `files` (a folder
 * uploaded file by file).
 */
export const ZLoraImportBaseInput = z.union([
  z.strictObject({ source: ref("a model folder, a .gguf file, or the blob of an uploaded .gguf (resolved to a read-only path)"), name: importName }),
  z.strictObject({ files: z.array(ZLoraUploadedFile).min(1).max(10_000).describe("a model folder uploaded file by file"), name: importName }),
]);

/** No model needed: the wizard's preview of an uploaded JSONL before a base is chosen. */
export const ZLoraProfileExamplesInput = z.strictObject({
  data: ref("JSONL file of examples"),
  maxPreview: z.int().min(0).max(50).default(5).describe("conversations shown in the preview"),
});

export const ZLoraCheckDataInput = z.strictObject({
  model,
  data: ref("JSONL file of training examples"),
  eval: ref("JSONL file of evaluation examples (else a split of data)").optional(),
  evalFraction: z.number().min(0.01).max(0.5).default(0.1),
  seed,
  maxLength,
  holdouts: z
    .array(ref("a reserved holdout's JSONL file"))
    .describe("the project's reserved holdouts of examples: an example whose normalised prompt is theirs is kept out of training and evaluation")
    .optional(),
});

export const ZLoraPreflightInput = z.strictObject({
  ...loraRun,
  whenOverBudget: z
    .enum(["refuse", "fewer_steps"])
    .default("refuse")
    .describe("when the planned steps do not fit maxMinutes: refuse (over_budget, naming the steps that fit) or plan the steps that fit (at least one)"),
  measured: z
    .lazy(() => ZReusedMeasurement)
    .describe("an earlier preflight of this computer on the same model, device and LoRA shape: its smoke step stands when as long as this data's")
    .optional(),
});

export const ZLoraTrainInput = z.strictObject({
  ...loraRun,
  learningRate: z.number().min(1e-7).max(1).default(2e-4),
  checkpointEverySteps: z.int().min(1).default(50),
  evalEverySteps: z.int().min(1).describe("default: 4 evaluations per run").optional(),
  seed,
  resumeFrom: ref("an earlier attempt's checkpoint folder (its newest complete checkpoint-N is used) or one checkpoint-N folder; read only").optional(),
  preflight: ref("output folder of preflight: the steps it fitted to the budget, when it did, replace the planned ones").optional(),
});

const adapter = ref("output folder of train (holding adapter/)");

export const ZLoraExportInput = z.strictObject({
  model,
  adapter,
  receipt: ref("output folder of evaluation-lm score (receipt.json) for this adapter"),
  checks: checkedData,
  name: z.string().max(200).describe("experiment name for the archive's folder and card; default: the base's name").optional(),
});

export const ZLoraGenerateInput = z.strictObject({
  model,
  adapter,
  prompt: z.string().min(1).max(32_000),
  maxNewTokens: z.int().min(1).max(4096).default(128),
  device,
});

export const ZLoraMergeInput = z.strictObject({ model, adapter });

/** A reserved holdout of examples, normalised for the trusted evaluator's holdout_compare (no model needed). */
export const ZLoraHoldoutExamplesInput = z.strictObject({ data: ref("the reserved holdout's JSONL file") });

/** The inputs as a caller writes them (defaulted fields optional). */
export type LoraProfileExamplesJobInput = z.input<typeof ZLoraProfileExamplesInput>;
export type LoraExportJobInput = z.input<typeof ZLoraExportInput>;
export type LoraGenerateJobInput = z.input<typeof ZLoraGenerateInput>;
export type LoraMergeJobInput = z.input<typeof ZLoraMergeInput>;
export type LoraImportBaseJobInput = z.input<typeof ZLoraImportBaseInput>;
export type LoraCheckDataJobInput = z.input<typeof ZLoraCheckDataInput>;
export type LoraPreflightJobInput = z.input<typeof ZLoraPreflightInput>;
export type LoraTrainJobInput = z.input<typeof ZLoraTrainInput>;

const count = z.int().nonnegative();

/** model_folder.py snapshot: one file of model/. */
export const ZLoraModelFile = z.strictObject({ path: z.string(), bytes: count, sha256: ZSha256Hex });

const baseFields = {
  version: z.literal(1),
  name: z.string(),
  /** The SHA-256 over every file of model/ (path and hash): the base model's identity. */
  snapshotSha256: ZSha256Hex,
  /** A transformers causal-LM class name, e.g. GPT2LMHeadModel. */
  architecture: z.string(),
  parameters: count,
  /** "default" when the model has no chat template and Trainyard's is used. */
  chatTemplate: z.enum(["model", "default"]),
};
/** A folder is copied as is (its source hash is the snapshot's); a GGUF is dequantized from its quantization type. */
const baseSource = [
  z.strictObject({ ...baseFields, source: z.literal("folder"), sourceSha256: ZSha256Hex, dequantizedFrom: z.null() }),
  z.strictObject({ ...baseFields, source: z.literal("gguf"), sourceSha256: ZSha256Hex, dequantizedFrom: z.string().describe("e.g. Q4_1") }),
] as const;

/** base.json (import_base.py). */
export const ZLoraBase = z.discriminatedUnion("source", [
  baseSource[0].extend({ files: z.array(ZLoraModelFile) }),
  baseSource[1].extend({ files: z.array(ZLoraModelFile) }),
]);
export type LoraBase = z.infer<typeof ZLoraBase>;

const ZLineProblems = z.strictObject({
  count,
  /** The first 50, 1-based line numbers. */
  lines: z.array(z.strictObject({ line: z.int().positive(), problem: z.string() })),
});

/** check_data.py _lengths: token counts of one side of the split, after the chat template. */
const ZTokenLengths = z.strictObject({
  count,
  min: count,
  max: count,
  mean: z.number().nonnegative(),
  p50: count,
  p95: count,
  tokens: count,
  overMaxLength: count,
  droppedNoAnswerLeft: count,
});

const ZMessage = z.strictObject({ role: z.enum(["system", "user", "assistant"]), content: z.string() });
/** A normalised example with its line in the data file. */
const ZPreviewExample = z.strictObject({ line: z.int().positive(), messages: z.array(ZMessage).min(2) });

/** What the data file holds, read without a model (check_data.py and profile_examples.py alike). */
const examplesFields = {
  version: z.literal(1),
  formats: z.array(z.enum(["chat", "prompt_completion", "alpaca"])).min(1),
  lines: z.strictObject({ usable: z.int().positive(), problems: ZLineProblems }),
  duplicates: z.strictObject({
    count,
    first: z.array(z.strictObject({ line: z.int().positive(), duplicateOf: z.int().positive() })),
    rule: z.string(),
  }),
};

/** examples.json (profile_examples.py): a JSONL file's profile; a file with no usable example is refused. */
export const ZLoraExamples = z.strictObject({
  ...examplesFields,
  /** The first maxPreview usable examples, in file order. */
  preview: z.array(ZPreviewExample),
});
export type LoraExamples = z.infer<typeof ZLoraExamples>;

/** holdout_examples.json: the holdout's examples as eval.jsonl holds them (exact duplicates dropped). */
export const ZLoraHoldoutExamples = z.strictObject({
  ...examplesFields,
  examples: z.int().positive(),
  /** The SHA-256 of each example's normalised prompt, line for line with eval.jsonl. */
  promptsFile: z.literal("eval_prompts.txt"),
});

/** checks.json (check_data.py): what the user reads before training. */
export const ZLoraChecks = z.strictObject({
  ...examplesFields,
  split: z.discriminatedUnion("strategy", [
    z.strictObject({ strategy: z.literal("user_file"), evalFile: z.string(), evalProblems: ZLineProblems }),
    z.strictObject({
      strategy: z.literal("random_by_prompt"),
      evalFraction: z.number().min(0.01).max(0.5),
      seed: count,
      dedup: z.literal("exact_duplicates_first_kept"),
    }),
  ]),
  overlap: z.strictObject({ removedFromTraining: count, lines: z.array(z.int().positive()), rule: z.literal("normalised prompt") }),
  /** Present when the project had reserved holdouts of examples: how many examples their prompts kept out (training and evaluation). */
  holdout: z.strictObject({ holdouts: z.int().positive(), removed: count, lines: z.array(z.int().positive()), rule: z.literal("normalised prompt") }).optional(),
  maxLength: z.int().min(16),
  truncation: z.string(),
  tokens: z.strictObject({ train: ZTokenLengths, eval: ZTokenLengths }),
  counts: z.strictObject({ train: z.int().positive(), eval: z.int().positive() }),
  /** The first training examples, normalised, with their line in the data file. */
  preview: z.array(ZPreviewExample),
  /**
   * trained_prompts.txt: the hashes of every prompt trained and evaluated on (the exclusion
   * evidence a registered version keeps) and the file's SHA-256; absent from checks made before.
   */
  trainedPromptsFile: z.literal("trained_prompts.txt").optional(),
  trainedPromptsSha256: ZSha256Hex.optional(),
});
export type LoraChecks = z.infer<typeof ZLoraChecks>;

/**
 * memory.py estimate, in bytes: total is the sum of the parts. runtime and weights are
 * measured in the preflight process (runtime is about 0 on a GPU); activations are the formula's
 * until the smoke steps ran, then their measured memory, and measuredPeak (then present) is
 * the highest the process reached in them (cpu: resident set; cuda: torch's allocations; MPS
 * reports no peak, so there the formula's activations stay and measuredPeak is absent).
 */
const memoryParts = { runtime: count, weights: count, lora: count, optimizer: count, activations: count, total: count };
const sumsUp = (e: { runtime: number; weights: number; lora: number; optimizer: number; activations: number; total: number }) =>
  e.total === e.runtime + e.weights + e.lora + e.optimizer + e.activations;
const ZMemoryEstimate = z.strictObject({ ...memoryParts, measuredPeak: count.optional() }).refine(sumsUp, "total is the sum of the parts");

const memoryFields = { estimate: ZMemoryEstimate, availableBytes: count, lengthUsed: z.int().positive() };

const ZSmokeStep = z.strictObject({
  batchSize: z.int().positive(),
  /** Padded width of the batch of the longest examples. */
  length: z.int().positive(),
  /** The first step (allocation, kernel choice), then the measured one. */
  seconds: z.array(z.number().nonnegative()).length(2),
  loss: z.number(),
  tokensPerSecond: z.number().nonnegative(),
  longestFirst: z.literal(true),
});

/**
 * What the server passes a preflight from an earlier one (issue 28): that job's smoke step
 * and memory, the CPUs it ran with and its loading time. The preflight then loads no model.
 */
export const ZReusedMeasurement = z.strictObject({
  jobId: z.string().min(1),
  measuredAt: z.iso.datetime({ offset: true }),
  cpus: z.int().positive(),
  smokeStep: ZSmokeStep,
  memory: ZMemoryEstimate,
  lengthUsed: z.int().positive(),
  setupSeconds: z.number().nonnegative(),
});
export type ReusedMeasurement = z.infer<typeof ZReusedMeasurement>;

const preflightFields = {
  version: z.literal(1),
  /** device_check: cuda adds the GPU's name and whether it does bf16. */
  device: z.strictObject({
    device: ZLoraDevice,
    ok: z.boolean(),
    seconds: z.number().nonnegative(),
    name: z.string().optional(),
    bf16: z.boolean().optional(),
  }),
};

/**
 * preflight.json (preflight.py). When the estimate does not fit, it is written with the
 * settings that would (and the job refuses does_not_fit_memory) before any step runs;
 * otherwise with the measured smoke step and the time estimate (also when it then refuses
 * over_budget).
 */
export const ZLoraPreflight = z.union([
  z.strictObject({
    ...preflightFields,
    memory: z.strictObject({ ...memoryFields, fits: z.literal(true) }),
    /** This job's smoke step, or the earlier one's when reusedFrom is set. */
    smokeStep: ZSmokeStep,
    /** Set when the smoke step and memory are an earlier preflight's (ZReusedMeasurement): no model was loaded. */
    reusedFrom: z.strictObject({ jobId: z.string().min(1), measuredAt: z.string() }).optional(),
    time: z.strictObject({
      /** The steps train will run: fewer than asked when fittedFrom is set. */
      plannedSteps: z.int().positive(),
      /** whenOverBudget "fewer_steps": the steps asked for (epochs or maxSteps), which did not fit the budget. */
      fittedFrom: z.int().positive().optional(),
      plannedTokens: count,
      estimatedSeconds: z.number().nonnegative(),
      /** Loading and tokenising before the first step (absent in reports written before it was recorded). */
      setupSeconds: z.number().nonnegative().optional(),
      cpus: z.int().positive(),
      note: z.string(),
      basis: z.string(),
    }),
  }),
  z.strictObject({
    ...preflightFields,
    memory: z.strictObject({
      ...memoryFields,
      fits: z.literal(false),
      /** Up to 4 (batchSize, maxLength) pairs whose estimate fits; empty when none does. */
      fitting: z.array(z.strictObject({ batchSize: z.int().positive(), maxLength: z.int().positive() })).max(4),
    }),
  }),
]);
export type LoraPreflight = z.infer<typeof ZLoraPreflight>;

const ZLossPoint = z.strictObject({ step: z.int().nonnegative(), loss: z.number() });

/** training.json (train.py). A SIGTERM'd attempt writes none (it exits 130 with a checkpoint). */
export const ZLoraTraining = z.strictObject({
  version: z.literal(1),
  device: ZLoraDevice,
  bf16: z.boolean(),
  lora: z.strictObject({
    rank: z.int().positive(),
    alpha: z.int().positive(),
    dropout: z.number().min(0),
    targetModules: z.union([z.literal("all-linear"), z.array(z.string()).min(1)]),
  }),
  /** The run's settings with the recipe's defaults applied (null: not set). */
  settings: z.strictObject({
    maxLength: z.int(),
    batchSize: z.int(),
    gradientAccumulation: z.int(),
    learningRate: z.number(),
    epochs: z.number(),
    maxSteps: z.int().nullable(),
    maxMinutes: z.number().nullable(),
    checkpointEverySteps: z.int(),
    evalEverySteps: z.int().nullable(),
    seed: z.int().nonnegative(),
  }),
  steps: count,
  plannedSteps: z.int().positive(),
  /** budget: maxMinutes ran out (a checkpoint was saved; the adapter is the one at that step). */
  stoppedBy: z.enum(["completed", "budget"]),
  resumedFromStep: count.nullable(),
  trainExamples: z.int().positive(),
  droppedNoAnswerLeft: count,
  evalExamples: count,
  trainableParameters: z.int().positive(),
  trainLoss: z.array(ZLossPoint),
  evalLoss: z.array(ZLossPoint),
  finalTrainLoss: z.number().nullable(),
  tokensSeen: count,
  trainRuntimeSeconds: z.number().nonnegative().nullable(),
  seconds: z.number().nonnegative(),
  tokensPerSecond: z.number().nonnegative(),
  /** base.json of the model input without its file list; null when the input was a bare model folder. */
  base: z.discriminatedUnion("source", [baseSource[0], baseSource[1]]).nullable(),
});
export type LoraTraining = z.infer<typeof ZLoraTraining>;

/** The base's identity as the export, generate and merge outputs name it. */
const ZBaseIdentity = z.strictObject({
  name: z.string(),
  snapshotSha256: ZSha256Hex,
  source: z.enum(["folder", "gguf"]),
  dequantizedFrom: z.string().nullable(),
});

/** verification.json (export.py): the unpacked archive reloaded in a fresh process reproduces the receipt. */
export const ZLoraExportVerification = z.strictObject({
  version: z.literal(1),
  verified: z.literal(true),
  device: z.literal("cpu"),
  dtype: z.literal("float32"),
  examples: z.int().positive(),
  tokens: z.int().positive(),
  receiptMeanNll: z.number().nonnegative(),
  reproducedMeanNll: z.number().nonnegative(),
  absoluteDifference: z.number().nonnegative(),
  tolerance: z.number().positive(),
  seconds: z.number().nonnegative(),
});
export type LoraExportVerification = z.infer<typeof ZLoraExportVerification>;

/** export.json (export.py): the archive, named and hashed like the tabular export's. */
export const ZLoraExport = ZExportSummary.pick({
  recipeVersion: true,
  archive: true,
  folder: true,
  fileName: true,
  loadingCommands: true,
  sha256: true,
  bytes: true,
  files: true,
  manifestSha256: true,
}).extend({
  /** SHA-256 of adapter_model.safetensors. */
  adapterSha256: ZSha256Hex,
  /** The base weights are not in the archive: they are named by this identity. */
  base: ZBaseIdentity,
  betterThanBase: z.boolean(),
});
export type LoraExport = z.infer<typeof ZLoraExport>;

/** answer.json (generate.py): one prompt answered greedily by the base and by base + adapter. */
export const ZLoraAnswer = z.strictObject({
  version: z.literal(1),
  prompt: z.string(),
  base: z.string(),
  adapter: z.string(),
  device: ZLoraDevice,
  maxNewTokens: z.int().positive(),
  seconds: z.number().nonnegative(),
  baseModel: ZBaseIdentity.nullable(),
  adapterSha256: ZSha256Hex,
});
export type LoraAnswer = z.infer<typeof ZLoraAnswer>;

/** merged.json (merge.py): the merged model/ folder's identity, naming the base and adapter it came from. */
export const ZLoraMerged = z.strictObject({
  ...baseFields,
  mergedFrom: z.strictObject({ base: ZBaseIdentity.nullable(), baseSnapshotSha256: ZSha256Hex, adapterSha256: ZSha256Hex }),
  files: z.array(ZLoraModelFile),
});
export type LoraMerged = z.infer<typeof ZLoraMerged>;

/** model/, adapter/, train.jsonl, eval.jsonl, export.tar.gz and MODEL_CARD.md are read by the recipe itself, not parsed here. */
export const llmLora = {
  profile_examples: { input: ZLoraProfileExamplesInput, outputs: { "examples.json": ZLoraExamples } },
  import_base: { input: ZLoraImportBaseInput, outputs: { "base.json": ZLoraBase } },
  check_data: { input: ZLoraCheckDataInput, outputs: { "checks.json": ZLoraChecks } },
  preflight: { input: ZLoraPreflightInput, outputs: { "preflight.json": ZLoraPreflight } },
  train: { input: ZLoraTrainInput, outputs: { "training.json": ZLoraTraining } },
  export: { input: ZLoraExportInput, outputs: { "export.json": ZLoraExport, "verification.json": ZLoraExportVerification } },
  generate: { input: ZLoraGenerateInput, outputs: { "answer.json": ZLoraAnswer } },
  /** Not part of the default chain: the user merges explicitly. model/ is read by the recipe. */
  merge: { input: ZLoraMergeInput, outputs: { "merged.json": ZLoraMerged } },
  /** eval.jsonl and eval_prompts.txt (line for line) are read by evaluation-lm holdout_compare. */
  holdout_examples: { input: ZLoraHoldoutExamplesInput, outputs: { "holdout_examples.json": ZLoraHoldoutExamples } },
} as const;
