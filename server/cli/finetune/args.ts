/**
 * `trainyard finetune`'s command line, checked before anything reaches the server: exactly
 * one base model (`--model` a folder or a .gguf file on this machine, or `--remote-model` a
 * path on the training computer), readable data files, and every setting checked by the
 * shared settings schema (server/finetune/finetune.schema.ts), so a refused value names its
 * flag and a limit is written in one place only.
 */
import { statSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import type { z } from "zod";
import { ZFineTuneSettings } from "@/server/finetune/finetune.schema";
import { CliError } from "../cli-error";
import { readableFileSize } from "../train/upload-file";

export const FINETUNE_USAGE = `Usage: trainyard finetune (--model FOLDER|FILE.gguf | --remote-model PATH) --data FILE.jsonl
  [--eval FILE.jsonl] [--project NAME] [--computer NAME] [--device cpu|cuda|mps]
  [--max-minutes N] [--epochs N] [--max-steps N] [--fit-to-budget] [--rank N] [--lr X] [--max-length N]
  [--batch-size N] [--eval-fraction X] [--answer-pattern REGEX] [--out DIR] [--json]
       trainyard finetune --resume EXPERIMENT_ID [--out DIR] [--json]`;

export const FINETUNE_HELP = `${FINETUNE_USAGE}

Fine-tunes a language model with LoRA on your examples and compares it with the base model
on held-out examples (mean NLL per answer token). Progress goes to stderr; the result to
stdout: a summary ending with the export's path, or with --json one JSON object.

Base model (exactly one):
  --model FOLDER          a Hugging Face model folder on this machine (config.json, *.safetensors,
                          tokenizer files); each file is sent to the training computer once
  --model FILE.gguf       a GGUF file on this machine (llama.cpp, Ollama); dequantized on import
  --remote-model PATH     a model folder or .gguf already on the training computer

Data (JSONL: prompt/completion, chat "messages", or alpaca instruction/input/output):
  --data FILE.jsonl       the training examples
  --eval FILE.jsonl       held-out examples to score on (default: a split of --data)
  --eval-fraction X       the share of --data held out when there is no --eval (default 0.1)

Where and how long:
  --project NAME          default "Default" (created when missing)
  --computer NAME         a training computer by name (default: the project's, else This computer)
  --device cpu|cuda|mps   used as chosen, never replaced by another (default cpu)
  --max-minutes N         the whole experiment's budget (default 15)
  --epochs N              passes over the training examples (default 1)
  --max-steps N           stop after N optimizer steps (overrides --epochs)
  --fit-to-budget         when the preflight finds the steps longer than the budget, train the
                          steps that fit instead (default: refuse before training, naming them)

LoRA settings:
  --rank N                LoRA rank (default 16)
  --lr X                  learning rate (default 0.0002)
  --max-length N          tokens per example; longer ones keep their start (default 512)
  --batch-size N          examples per step (default 4)
  --answer-pattern REGEX  a regex with one group around the answer, e.g. '#### (\\S+)': also
                          reports exact match of the generated answer for base and adapter

Resume (a cancelled, crashed or timed-out run whose training saved a checkpoint):
  --resume EXPERIMENT_ID  start a new attempt on the same data and settings that continues
                          training at the saved step, and follow it like a first run; an
                          experiment is resumed once (the refusal names its successor)

Output:
  --out DIR               where the verified export is saved (default: the current folder)
  --json                  print one JSON object: experimentId, status, baseLoss, adapterLoss,
                          betterThanBase, metrics, exportPath, seconds, tokensPerSecond, error
                          (a refused run's error.retry: the settings that would fit, e.g.
                          {"maxSteps": 12}, which is --max-steps 12)

Exit codes: 0 succeeded, 1 failed (the message says why), 2 bad usage.`;

/** A base model on the CLI's machine (sent to the training computer) or already there. */
export type ModelArg = { kind: "folder"; dir: string } | { kind: "gguf"; file: string } | { kind: "remote"; path: string };

const ZSettingsWithoutBase = ZFineTuneSettings.omit({ base: true });
export type FineTuneFlagSettings = z.infer<typeof ZSettingsWithoutBase>;

export interface FineTuneArgs {
  model: ModelArg;
  data: string;
  eval: string | null;
  project: string;
  computer: string | null;
  out: string;
  json: boolean;
  settings: FineTuneFlagSettings;
}

/** Each setting's flag, and whether its value is a number. */
const SETTING_FLAGS = {
  "max-minutes": { field: "maxMinutes", number: true },
  epochs: { field: "epochs", number: true },
  "max-steps": { field: "maxSteps", number: true },
  rank: { field: "rank", number: true },
  lr: { field: "learningRate", number: true },
  "max-length": { field: "maxLength", number: true },
  "batch-size": { field: "batchSize", number: true },
  "eval-fraction": { field: "evalFraction", number: true },
  "answer-pattern": { field: "answerPattern", number: false },
  device: { field: "device", number: false },
} as const satisfies Record<string, { field: keyof FineTuneFlagSettings; number: boolean }>;
type SettingFlag = keyof typeof SETTING_FLAGS;

/** Settings as the flags that set them: `{maxSteps: 12}` → "--max-steps 12". */
export function flagsOf(settings: Partial<Record<keyof FineTuneFlagSettings, string | number>>): string {
  const flagOf = new Map<string, string>(Object.entries(SETTING_FLAGS).map(([flag, { field }]) => [field, flag]));
  return Object.entries(settings)
    .filter(([field, value]) => value !== undefined && flagOf.has(field))
    .map(([field, value]) => `--${flagOf.get(field)} ${String(value)}`)
    .join(" ");
}

// Number("") is 0 and Number("0x10") is 16: only a plain decimal is a number here.
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

function settingsFrom(values: Partial<Record<SettingFlag, string>>): FineTuneFlagSettings {
  const given: Record<string, unknown> = {};
  const flagOf: Record<string, SettingFlag> = {};
  for (const [flag, { field, number }] of Object.entries(SETTING_FLAGS) as [SettingFlag, (typeof SETTING_FLAGS)[SettingFlag]][]) {
    const raw = values[flag];
    if (raw === undefined) continue;
    if (number && !DECIMAL.test(raw.trim())) throw new CliError(`--${flag} needs a number (got "${raw}").`, 2);
    given[field] = number ? Number(raw) : raw;
    flagOf[field] = flag;
  }
  const parsed = ZSettingsWithoutBase.safeParse(given);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const flag = flagOf[String(issue.path[0])];
  throw new CliError(flag ? `--${flag} ${values[flag]} is refused: ${issue.message}` : issue.message, 2);
}

function modelArg(local: string | undefined, remote: string | undefined): ModelArg {
  if (Boolean(local) === Boolean(remote)) throw new CliError(`Name the base model with exactly one of --model or --remote-model.\n${FINETUNE_USAGE}`, 2);
  if (remote) return { kind: "remote", path: remote };
  const at = path.resolve(local!);
  let isDir: boolean;
  try {
    isDir = statSync(at).isDirectory();
  } catch (err) {
    throw new CliError(`--model ${local}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}).`, 1, "file_unreadable");
  }
  if (isDir) {
    let hasConfig = false;
    try {
      hasConfig = statSync(path.join(at, "config.json")).isFile();
    } catch {
      // reported below
    }
    if (!hasConfig) {
      throw new CliError(`--model ${local} is not a model folder: it has no config.json (a Hugging Face model folder holds config.json, the *.safetensors weights and the tokenizer files).`, 1, "not_a_model");
    }
    return { kind: "folder", dir: at };
  }
  if (!at.toLowerCase().endsWith(".gguf")) throw new CliError(`--model ${local} is neither a model folder nor a .gguf file.`, 1, "not_a_model");
  readableFileSize(at);
  return { kind: "gguf", file: at };
}

function dataFile(flag: string, file: string): string {
  try {
    readableFileSize(file);
  } catch (err) {
    throw new CliError(`--${flag}: ${(err as Error).message}`, 1, "file_unreadable");
  }
  return path.resolve(file);
}

export interface ResumeArgs {
  experimentId: string;
  out: string;
  json: boolean;
}

/** True when the command line asks to resume (`--resume ID` or `--resume=ID`). */
export const asksToResume = (argv: string[]) => argv.some((a) => a === "--resume" || a.startsWith("--resume="));

/**
 * `--resume ID`: only where the export goes and how to print it. The data, the base and the
 * settings are the stopped experiment's, so a flag that would change them is refused rather
 * than silently ignored.
 */
export function parseResumeArgs(argv: string[]): ResumeArgs {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: false,
    options: { resume: { type: "string" }, out: { type: "string", default: "." }, json: { type: "boolean", default: false } },
  });
  const other = Object.keys(values).filter((k) => !["resume", "out", "json"].includes(k));
  if (other.length || positionals.length) {
    const what = other.length ? other.map((k) => `--${k}`).join(", ") : positionals.join(" ");
    throw new CliError(`--resume continues the stopped experiment with its own data, base model and settings: leave out ${what}.\n${FINETUNE_USAGE}`, 2);
  }
  const id = typeof values.resume === "string" ? values.resume.trim() : "";
  // "--resume --json": parseArgs took the next flag for the id.
  if (!id || id.startsWith("-")) throw new CliError(`Name the experiment to resume: --resume EXPERIMENT_ID (trainyard experiments list shows the ids).\n${FINETUNE_USAGE}`, 2);
  return { experimentId: id, out: String(values.out), json: values.json === true };
}

/** The checked command line; a CliError (exit code 2 for usage, 1 for an unreadable file) otherwise. */
export function parseFineTuneArgs(argv: string[]): FineTuneArgs {
  const { values } = parseArgs({
    args: argv,
    options: {
      model: { type: "string" },
      "remote-model": { type: "string" },
      data: { type: "string" },
      eval: { type: "string" },
      project: { type: "string", default: "Default" },
      // Unset: the project's default computer, else This computer (the server resolves it).
      computer: { type: "string" },
      out: { type: "string", default: "." },
      json: { type: "boolean", default: false },
      "fit-to-budget": { type: "boolean", default: false },
      ...(Object.fromEntries(Object.keys(SETTING_FLAGS).map((f) => [f, { type: "string" }])) as Record<SettingFlag, { type: "string" }>),
    },
  });
  if (!values.data) throw new CliError(`Name the training examples with --data FILE.jsonl.\n${FINETUNE_USAGE}`, 2);
  const settings = { ...settingsFrom(values), fitToBudget: values["fit-to-budget"] === true };
  const model = modelArg(values.model, values["remote-model"]);
  return {
    model,
    data: dataFile("data", values.data),
    eval: values.eval ? dataFile("eval", values.eval) : null,
    project: values.project!,
    computer: values.computer ?? null,
    out: values.out!,
    json: values.json!,
    settings,
  };
}
