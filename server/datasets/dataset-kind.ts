/**
 * The two kinds of dataset and what differs between them: a table (CSV, TSV, gzip,
 * Parquet) is profiled by `data.profile` and trains a prediction model; a file of examples
 * (JSONL: prompt/completion, chat messages or alpaca) is profiled by
 * `llm-lora.profile_examples` and fine-tunes a language model. Everything that reads
 * columns (target choice, data checks, splits, the tabular start) refuses examples here.
 */
import { z } from "zod";
import { ZLoraExamples, type LoraExamples } from "@/contracts/recipes/llm-lora";
import { parseStoredJson } from "@/server/db/stored-json";
import { badInput } from "@/server/errors";

export const DATASET_KINDS = ["table", "examples"] as const;
export const ZDatasetKind = z.enum(DATASET_KINDS);
export type DatasetKind = z.infer<typeof ZDatasetKind>;

/** The kind the user asked for, else by the file name: `.jsonl` is examples, anything else a table. */
export function datasetKindOf(fileName: string, asked: DatasetKind | undefined): DatasetKind {
  return asked ?? (/\.jsonl$/i.test(fileName) ? "examples" : "table");
}

/** Stored rows carry plain text; anything unknown reads as the original kind, a table. */
export const storedKind = (kind: string): DatasetKind => (kind === "examples" ? "examples" : "table");

/** How many examples the dataset preview shows (profile_examples' maxPreview). */
export const EXAMPLES_PREVIEW = 5;

/** The profile job of a dataset kind: which recipe's job, and the file it writes. */
export const PROFILE_STEP = {
  table: { recipe: "data", job: "profile", output: "profile.json" },
  examples: { recipe: "llm-lora", job: "profile_examples", output: "examples.json" },
} as const satisfies Record<DatasetKind, { recipe: string; job: string; output: string }>;

/** An examples dataset's examples.json as stored when its profile job succeeded. */
export const storedExamples = (s: string | null): LoraExamples | null => parseStoredJson(ZLoraExamples, s);

/** Refuses an examples dataset where a table is needed, saying what it is for instead. */
export function requireTable(d: { name: string; kind: string }, what: string): void {
  if (storedKind(d.kind) !== "examples") return;
  throw badInput(`${d.name} is a file of examples for fine-tuning a language model, not a table: it cannot be used for ${what}. Choose a CSV or Parquet file, or use it in "Fine-tune a language model".`, {
    code: "examples_dataset",
  });
}

/** Refuses a table where a file of examples is needed (the fine-tuning start). */
export function requireExamples(d: { name: string; kind: string }): void {
  if (storedKind(d.kind) === "examples") return;
  throw badInput(`${d.name} is a table, not a JSONL file of examples: fine-tuning needs one example per line (prompt/completion, chat messages or alpaca).`, {
    code: "table_dataset",
  });
}
