/**
 * The fine-tuning wizard's choices and how they become finetune.start's input. Pure;
 * the zod schema of the start input is the one the server validates with, so a choice
 * the server would refuse is shown next to its field before Start.
 */
import type { LORA_DEVICES } from "@/contracts/recipes/llm-lora";
import { FINETUNE_DEFAULTS, ZFineTuneSettings, type TFineTuneSettings } from "@/server/finetune/finetune.schema";

/** A .gguf file this browser sent, stored on This computer by its SHA-256. */
export interface SentGguf {
  fileName: string;
  sha256: string;
  /** null: sent for an earlier run, whose settings keep its name and hash only. */
  bytes: number | null;
}

/** Where the base model comes from: a path on the training computer, or a .gguf file from this browser (null until one is sent). */
export type BaseChoice = { kind: "path"; path: string } | { kind: "upload"; sent: SentGguf | null };

export interface FineTuneChoices {
  step: number;
  targetId: string | null;
  base: BaseChoice;
  datasetId: string | null;
  /** null: a seeded split of the data (evalFraction) is held out instead. */
  evalDatasetId: string | null;
  evalFraction: number;
  device: (typeof LORA_DEVICES)[number];
  rank: number;
  /** null: the recipe's default, 2 × rank. */
  alpha: number | null;
  learningRate: number;
  maxLength: number;
  batchSize: number;
  epochs: number;
  /** null: no step cap (the epochs decide). */
  maxSteps: number | null;
  /** Steps longer than the minutes: train the steps that fit (true), or stop before training. */
  fitToBudget: boolean;
  maxMinutes: number;
  /** "" for none. */
  answerPattern: string;
}

export const INITIAL_CHOICES: FineTuneChoices = {
  step: 0,
  targetId: null,
  base: { kind: "path", path: "" },
  datasetId: null,
  evalDatasetId: null,
  evalFraction: FINETUNE_DEFAULTS.evalFraction,
  device: "cpu",
  rank: FINETUNE_DEFAULTS.rank,
  alpha: null,
  learningRate: FINETUNE_DEFAULTS.learningRate,
  maxLength: FINETUNE_DEFAULTS.maxLength,
  batchSize: FINETUNE_DEFAULTS.batchSize,
  epochs: FINETUNE_DEFAULTS.epochs,
  maxSteps: null,
  // The default fits the computer it runs on: the preflight measures a step there and the
  // run trains the steps that fit the minutes.
  fitToBudget: true,
  maxMinutes: FINETUNE_DEFAULTS.maxMinutes,
  answerPattern: "",
};

export const STEP_TITLES = ["Training computer", "Base model", "Examples", "Settings", "Budget", "Review and start"] as const;

/** The step that shows each field (a key is a dotted path of the start input). */
const FIELD_STEP: Record<string, number> = {
  targetId: 0,
  "settings.base.path": 1,
  "settings.base": 1,
  datasetId: 2,
  evalDatasetId: 2,
  "settings.evalFraction": 2,
  "settings.device": 3,
  "settings.rank": 3,
  "settings.alpha": 3,
  "settings.learningRate": 3,
  "settings.maxLength": 3,
  "settings.batchSize": 3,
  "settings.maxMinutes": 4,
  "settings.epochs": 4,
  "settings.maxSteps": 4,
  "settings.fitToBudget": 4,
  "settings.answerPattern": 4,
};

/** The first step holding a field with an error, else the review. */
export function firstStepWithError(errors: Record<string, string>): number {
  const steps = Object.keys(errors).map((k) => FIELD_STEP[k] ?? 5);
  return steps.length ? Math.min(...steps) : 5;
}

export function settingsOf(c: FineTuneChoices): TFineTuneSettings {
  return {
    base: baseSource(c.base),
    evalFraction: c.evalFraction,
    seed: 0,
    device: c.device,
    rank: c.rank,
    ...(c.alpha !== null && { alpha: c.alpha }),
    learningRate: c.learningRate,
    maxLength: c.maxLength,
    batchSize: c.batchSize,
    epochs: c.epochs,
    ...(c.maxSteps !== null && { maxSteps: c.maxSteps }),
    fitToBudget: c.fitToBudget,
    maxMinutes: c.maxMinutes,
    ...(c.answerPattern.trim() && { answerPattern: c.answerPattern.trim() }),
  };
}

/**
 * The wizard's choices for a run that already ran ("Edit settings" on its page): the same
 * computer, data and settings, opened at the review, where every step can be changed before
 * Start. The inverse of settingsOf; a .gguf the run was given by upload keeps its name and
 * hash (its bytes stay on the server by that hash), its size unknown here. null for a base
 * the wizard cannot take: a model folder sent file by file by `trainyard finetune`.
 */
export function choicesOfRun(run: { targetId: string; datasetId: string; evalDatasetId: string | null; settings: TFineTuneSettings }): FineTuneChoices | null {
  const s = run.settings;
  let base: BaseChoice;
  if (s.base.kind === "path") base = { kind: "path", path: s.base.path };
  else if (s.base.kind === "gguf_upload") base = { kind: "upload", sent: { fileName: s.base.fileName, sha256: s.base.sha256, bytes: null } };
  else return null;
  return {
    step: STEP_TITLES.length - 1,
    targetId: run.targetId,
    base,
    datasetId: run.datasetId,
    evalDatasetId: run.evalDatasetId,
    evalFraction: s.evalFraction,
    device: s.device,
    rank: s.rank,
    alpha: s.alpha ?? null,
    learningRate: s.learningRate,
    maxLength: s.maxLength,
    batchSize: s.batchSize,
    epochs: s.epochs,
    maxSteps: s.maxSteps ?? null,
    fitToBudget: s.fitToBudget,
    maxMinutes: s.maxMinutes,
    answerPattern: s.answerPattern ?? "",
  };
}

export function baseChosen(base: BaseChoice): boolean {
  return base.kind === "upload" ? base.sent !== null : Boolean(base.path.trim());
}

// An upload chosen but not sent has no source yet: it becomes an empty path, which the
// start input refuses, and settingsErrors says what to do instead.
function baseSource(base: BaseChoice): TFineTuneSettings["base"] {
  if (base.kind === "path") return { kind: "path", path: base.path.trim() };
  return base.sent ? { kind: "gguf_upload", fileName: base.sent.fileName, sha256: base.sent.sha256 } : { kind: "path", path: "" };
}

/** How the review names the base model. */
export function baseLabel(base: BaseChoice): string {
  if (base.kind === "path") return base.path.trim() || "—";
  if (!base.sent) return "—";
  const size = base.sent.bytes === null ? "" : `, ${(base.sent.bytes / 1e6).toFixed(1)} MB`;
  return `${base.sent.fileName} (sent from this browser${size}, SHA-256 ${base.sent.sha256.slice(0, 12)}…)`;
}

/** The settings' problems before Start, keyed like the server's issues ("settings.rank"). */
export function settingsErrors(c: FineTuneChoices): Record<string, string> {
  const r = ZFineTuneSettings.safeParse(settingsOf(c));
  const out: Record<string, string> = {};
  if (!baseChosen(c.base))
    out["settings.base.path"] = c.base.kind === "upload" ? "Choose a .gguf file to send, or give a path on the training computer." : "Give the path of a model folder or a .gguf file on the training computer.";
  if (!r.success) for (const i of r.error.issues) out[["settings", ...i.path].join(".")] ??= i.message;
  return out;
}
