/**
 * A version's evaluation evidence, by the kind of experiment it came from: a tabular
 * model's candidate and baseline receipts, or a LoRA fine-tune's receipt with its base
 * model and evaluation contract (lora-evidence.ts). The gate, the comparison and the views
 * read a version's score through scoreOf, so neither kind is special-cased elsewhere.
 */
import { z } from "zod";
import { ZReceipt, type Direction } from "@/contracts/recipes";
import { ZLoraEvidence, baseWords, loraEvidenceWords, loraMetrics } from "./lora-evidence";

export const ZTabularEvidence = z.strictObject({ kind: z.literal("tabular"), receipt: ZReceipt, baseline: ZReceipt });
export const ZVersionEvidence = z.discriminatedUnion("kind", [ZTabularEvidence, ZLoraEvidence]);
export type VersionEvidence = z.infer<typeof ZVersionEvidence>;

export const KIND_WORDS: Record<VersionEvidence["kind"], string> = { tabular: "a tabular model", lora: "a LoRA fine-tune of a language model" };

/**
 * The row's columns as register.ts writes them: a tabular version keeps its two receipts
 * as they are (rows from before LoRA versions look the same); a LoRA version keeps its
 * tagged evidence in `receipt` and null in `baselineReceipt`.
 */
export function evidenceColumns(e: VersionEvidence): { receipt: string; baselineReceipt: string } {
  return e.kind === "tabular" ? { receipt: JSON.stringify(e.receipt), baselineReceipt: JSON.stringify(e.baseline) } : { receipt: JSON.stringify(e), baselineReceipt: "null" };
}

const ZLoraTag = z.object({ kind: z.literal("lora") });

export function evidenceFromColumns(row: { receipt: string; baselineReceipt: string }): VersionEvidence {
  const stored: unknown = JSON.parse(row.receipt);
  if (ZLoraTag.safeParse(stored).success) return ZLoraEvidence.parse(stored);
  return { kind: "tabular", receipt: ZReceipt.parse(stored), baseline: ZReceipt.parse(JSON.parse(row.baselineReceipt)) };
}

export interface Score {
  metric: string;
  /** What a page calls the metric: its name, or "answer-token loss" for a fine-tune's. */
  label: string;
  direction: Direction;
  value: number;
  /** The baseline's score (tabular) or the base model's (LoRA), on the same data. */
  baselineValue: number;
  metrics: Record<string, number | null | undefined>;
  /** In plain words, with the baseline: "answer-token loss 1.35 → 1.01 vs its base". */
  words: string;
}

const fmt = (x: number) => x.toPrecision(4);

export function scoreOf(e: VersionEvidence): Score {
  if (e.kind === "lora") {
    const r = e.receipt;
    return { metric: r.metric, label: "answer-token loss", direction: "lower_is_better", value: r.adapter.meanNll, baselineValue: r.base.meanNll, metrics: loraMetrics(e), words: loraEvidenceWords(e) };
  }
  const r = e.receipt;
  const words = `${r.primaryMetric} ${fmt(r.primaryValue)} vs ${fmt(e.baseline.primaryValue)} for the baseline on ${r.rows} test rows`;
  return { metric: r.primaryMetric, label: r.primaryMetric, direction: r.direction, value: r.primaryValue, baselineValue: e.baseline.primaryValue, metrics: r.metrics, words };
}

/** A fine-tune's base model in words ("tiny-gpt2 (snapshot 1a2b3c4d5e6f)"); null for a tabular model. */
export const baseModelWords = (e: VersionEvidence) => (e.kind === "lora" ? baseWords(e.base) : null);

/** Positive: `candidate` is better than `reference` (in its metric's direction). */
export const improvementOf = (s: Score, candidate: number, reference: number) => (s.direction === "higher_is_better" ? candidate - reference : reference - candidate);
