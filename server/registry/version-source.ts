/**
 * What a succeeded experiment gives its version, by its kind: a tabular experiment's
 * candidate and baseline receipts and trained model's hash (chain-results.ts); a LoRA
 * fine-tune's receipt, base model and evaluation contract with its adapter's hash
 * (lora-evidence.ts). Null when the experiment has no stored results to register.
 */
import { parseStoredResults } from "@/server/experiments/chain-results";
import { parseFineTuneResults } from "@/server/experiments/pipelines/lora-results";
import { loraVersionFields } from "./lora-evidence";
import type { PredictLatency } from "@/contracts/recipes";
import type { VersionEvidence } from "./version-evidence";

export interface VersionFields {
  evidence: VersionEvidence;
  evaluationContractHash: string;
  /** The trained output the receipt scored: the tabular model's hash, the LoRA adapter's. */
  modelSha256: string;
  exportBytes: number;
  exportFileName: string;
  /** Single-row prediction time when it was tested; null for a fine-tune or older results. */
  latency: PredictLatency | null;
}

export function versionFields(exp: { kind: string; results: string | null }): VersionFields | null {
  if (exp.kind === "finetune") {
    const results = parseFineTuneResults(exp.results);
    return results ? loraVersionFields(results) : null;
  }
  const results = parseStoredResults(exp.results);
  if (!results) return null;
  return {
    evidence: { kind: "tabular", receipt: results.candidate, baseline: results.baseline },
    evaluationContractHash: results.candidate.contractSha256,
    modelSha256: results.export.modelSha256,
    exportBytes: results.export.bytes,
    exportFileName: results.export.fileName,
    latency: results.latency ?? null,
  };
}

/** The chain step whose output is the export archive (the worker it is restored from by hash). */
export const exportStepOf = (kind: string) => (kind === "finetune" ? "export" : "package");
