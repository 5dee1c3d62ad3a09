/**
 * What a LoRA fine-tune's version records as its evidence, read only through the
 * experiment's stored fine-tuning results (server/experiments/pipelines/lora-results.ts,
 * the one typed home of the recipe's outputs): the trusted receipt (base vs adapter on the
 * same answer tokens, from the trusted evaluation-lm recipe), the exact base model it
 * adapts, and the evaluator's contract two LoRA versions must share to be compared.
 */
import { z } from "zod";
import { ZFineTuneResults, type FineTuneResults } from "@/server/experiments/pipelines/lora-results";

const { receipt: ZLoraVersionReceipt, base: ZLoraVersionBase } = ZFineTuneResults.shape;
type LoraContract = z.infer<typeof ZLoraVersionReceipt.shape.evaluationContract>;

/**
 * The fields of the evaluator's contract (its receipt's evaluationContract, hashed to
 * contractSha256) in the words a page shows when two LoRA versions differ.
 */
export const LORA_CONTRACT_FIELDS: Record<keyof LoraContract, string> = {
  metric: "metric",
  direction: "metric direction",
  baseSnapshotSha256: "base model snapshot",
  evalSetSha256: "evaluation set",
  maxLength: "max length",
  masking: "answer-token masking",
  chatTemplateSha256: "chat template",
  evaluatorVersion: "evaluator version",
};

/**
 * A LoRA version's evidence as the ModelVersion row keeps it (in its receipt column; the
 * base's score is inside the receipt, so its baseline column holds null).
 */
export const ZLoraEvidence = z.strictObject({ kind: z.literal("lora"), receipt: ZLoraVersionReceipt, base: ZLoraVersionBase });
export type LoraEvidence = z.infer<typeof ZLoraEvidence>;

/** What registering a succeeded fine-tune stores: its evidence, the adapter's hash and its export's names. */
export function loraVersionFields(results: FineTuneResults) {
  const evidence: LoraEvidence = { kind: "lora", receipt: results.receipt, base: results.base };
  return {
    evidence,
    evaluationContractHash: results.receipt.contractSha256,
    modelSha256: results.export.adapterSha256,
    exportBytes: results.export.bytes,
    exportFileName: results.export.fileName,
    // A fine-tune's latency is generation time, which the policy's single-row limit does not measure.
    latency: null,
  };
}

/** Why a LoRA receipt is not evidence about this exact version (adapter, base, contract); null when it is. */
export function loraEvidenceMismatch(e: LoraEvidence, v: { modelSha256: string; evaluationContractHash: string }): string | null {
  const r = e.receipt;
  if (r.adapterSha256 !== v.modelSha256) return `its receipt judged adapter ${r.adapterSha256}, not this version's ${v.modelSha256}`;
  if (r.evaluationContract.baseSnapshotSha256 !== e.base.snapshotSha256) return "its receipt scored another base model snapshot than the one it adapts";
  if (r.contractSha256 !== v.evaluationContractHash) return "its receipt's evaluation contract is not the one recorded";
  return null;
}

/** The receipt's scores by name, adapter and base side by side (exact match only with an answer pattern). */
export function loraMetrics(e: LoraEvidence): Record<string, number> {
  const r = e.receipt;
  return {
    mean_nll_per_answer_token: r.adapter.meanNll,
    perplexity: r.adapter.perplexity,
    base_mean_nll_per_answer_token: r.base.meanNll,
    base_perplexity: r.base.perplexity,
    ...(r.exactMatch ? { exact_match: r.exactMatch.adapter, base_exact_match: r.exactMatch.base } : {}),
  };
}

const loss = (x: number) => x.toFixed(2);
const pct = (x: number) => `${Math.round(x * 100)} %`;

/** The evidence in plain words: "answer-token loss 1.35 → 1.01 vs its base (perplexity 3.87 → 2.75)". */
export function loraEvidenceWords(e: LoraEvidence): string {
  const r = e.receipt;
  const ppl = `perplexity ${r.base.perplexity.toFixed(2)} → ${r.adapter.perplexity.toFixed(2)}`;
  const em = r.exactMatch ? `; exact match ${pct(r.exactMatch.base)} → ${pct(r.exactMatch.adapter)}` : "";
  return `answer-token loss ${loss(r.base.meanNll)} → ${loss(r.adapter.meanNll)} vs its base (${ppl}${em}) on ${r.examples} held-out examples`;
}

/** The base model in words: "tiny-gpt2 (snapshot 1a2b3c4d5e6f)", "… dequantized from Q4_1". */
export function baseWords(base: LoraEvidence["base"]): string {
  return `${base.name} (snapshot ${base.snapshotSha256.slice(0, 12)}${base.dequantizedFrom ? `, dequantized from ${base.dequantizedFrom}` : ""})`;
}
