/**
 * The hard gates a policy's candidate must pass, which nothing overrides: against the
 * version in use, the same evaluation contract with a gain of at least the minimum useful
 * gain (the registry's gate), or — when the two were evaluated on different data — a win on
 * the project's holdout whose interval excludes a loss. No version in use: the first passes.
 * Beside quality, the policy's limits: a candidate whose export is larger, or whose
 * single-row predictions were slower when it was tested, is refused.
 */
import type { Db } from "@/server/db/client";
import { isDomainError } from "@/server/errors";
import { compareOnHoldout } from "@/server/holdouts/compare";
import { intervalVerdict } from "@/server/holdouts/interval-verdict";
import { gate } from "@/server/registry/gate";
import { aliasTarget } from "@/server/registry/promote";
import { findModel, findVersion, type VersionView } from "@/server/registry/registry-views";
import { registrySettings } from "@/server/registry/registry-settings";
import type { CandidateEvidence } from "./evidence";

const MIB = 1024 * 1024;

export interface PolicyLimits {
  maxExportMib: number | null;
  maxLatencyMs: number | null;
}

export async function judgeVersion(db: Db, modelId: string, number: number, limits: PolicyLimits): Promise<CandidateEvidence> {
  const quality = await judgeQuality(db, modelId, number);
  if (quality.kind === "refused") return quality;
  const candidate = await findVersion(db, modelId, number);
  const over = overLimits(candidate, limits);
  if (over) return { kind: "refused", judgedRevision: quality.judgedRevision, incumbent: quality.incumbent, words: over };
  if (limits.maxExportMib === null && limits.maxLatencyMs === null) return quality;
  // Within every limit set: what was measured against each, for the owner who approves.
  return {
    ...quality,
    limits: {
      exportMib: limits.maxExportMib === null ? null : { value: candidate.exportBytes / MIB, limit: limits.maxExportMib },
      p95Ms: limits.maxLatencyMs === null || !candidate.latency ? null : { value: candidate.latency.p95Ms, limit: limits.maxLatencyMs },
    },
  };
}

/** Why the candidate is over one of the policy's limits, however good it is; null when within them. */
export function overLimits(candidate: Pick<VersionView, "exportBytes" | "latency">, limits: PolicyLimits): string | null {
  if (limits.maxExportMib !== null && candidate.exportBytes > limits.maxExportMib * MIB) {
    return `Its export is ${(candidate.exportBytes / MIB).toFixed(2)} MiB, over the policy's limit of ${limits.maxExportMib} MiB (however good it is).`;
  }
  if (limits.maxLatencyMs === null) return null;
  const l = candidate.latency;
  if (!l) return `The policy limits latency to ${limits.maxLatencyMs} ms, and this version has no measured latency (a fine-tune, or trained before single-row predictions were timed): retrain it to measure it.`;
  if (l.p95Ms > limits.maxLatencyMs) return `Its single-row predictions take ${l.p95Ms} ms at the 95th percentile (${l.rows} timed when it was tested), over the policy's limit of ${limits.maxLatencyMs} ms (however good it is).`;
  return null;
}

async function judgeQuality(db: Db, modelId: string, number: number): Promise<CandidateEvidence> {
  const model = await findModel(db, modelId);
  const candidate = await findVersion(db, modelId, number);
  const incumbent = await aliasTarget(db, modelId, "selected");
  const { minUsefulGain } = await registrySettings(db);
  const d = gate(candidate, incumbent, minUsefulGain);
  const base = { judgedRevision: model.revision, incumbent: incumbent?.number ?? null };
  switch (d.verdict) {
    case "first":
      return { kind: "first", ...base, words: d.reason };
    case "better":
      return { kind: "same_contract", ...base, words: d.reason, metric: d.metric, candidateValue: d.candidate, incumbentValue: d.selected, improvement: d.improvement, minUsefulGain };
    case "needs_acknowledgement":
      if (d.why === "not_better") return { kind: "refused", ...base, words: `${d.reason} A policy promotes only a real gain.` };
      return holdoutJudgement(db, modelId, incumbent!.number, number, base);
    default:
      return { kind: "refused", ...base, words: d.reason };
  }
}

async function holdoutJudgement(db: Db, modelId: string, incumbent: number, candidate: number, base: { judgedRevision: number; incumbent: number | null }): Promise<CandidateEvidence> {
  let r;
  try {
    r = await compareOnHoldout(db, { modelId, versions: [incumbent, candidate] });
  } catch (err) {
    if (!isDomainError(err)) throw err;
    return { kind: "refused", ...base, words: `Versions ${incumbent} and ${candidate} were evaluated on different data, and the holdout could not decide: ${err.message}` };
  }
  const pct = Math.round(r.difference.confidence * 100);
  const facts = { holdout: r.holdout, metric: r.metric, direction: r.direction, unit: r.unit, rows: r.rows, results: r.results, difference: { estimate: r.difference.estimate, low: r.difference.low, high: r.difference.high, confidence: r.difference.confidence } };
  if (intervalVerdict(r.direction, r.difference.low, r.difference.high) === "second_better") {
    return { kind: "holdout", ...base, ...facts, words: `Better than version ${incumbent} on the holdout “${r.holdout.name}” (${r.rows} ${r.unit} neither learnt from): the ${pct}% interval of the difference excludes a loss.` };
  }
  return { kind: "refused", ...base, words: `Not shown better than version ${incumbent} on the holdout “${r.holdout.name}”: the ${pct}% interval of the difference does not exclude a loss.` };
}
