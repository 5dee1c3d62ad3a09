/**
 * The promotion gate: may this version replace the selected one on the evidence alone?
 * Comparable only when both evaluation contracts are identical — tabular: metric and
 * direction, split, evaluator version, evaluation snapshot; LoRA: base model snapshot,
 * evaluation set, max length, metric (answer tokens) and evaluator; a tabular and a LoRA
 * version never. Then better by at least the minimum useful gain promotes, anything else
 * needs an acknowledgement with a reason. Evidence that is not about this exact version
 * (its hashes differ) means it needs evaluation. Pure: the services hand it parsed versions.
 */
import { z } from "zod";
import type { Receipt } from "@/contracts/recipes";
import { LORA_CONTRACT_FIELDS, loraEvidenceMismatch, type LoraEvidence } from "./lora-evidence";
import { KIND_WORDS, improvementOf, scoreOf, type VersionEvidence } from "./version-evidence";

/** What the gate reads of a version. */
export interface GateVersion {
  number: number;
  status: string;
  modelSha256: string;
  snapshotSha256: string;
  evaluationContractHash: string;
  evidence: VersionEvidence;
}

/** The contract fields that make two tabular receipts comparable, in the words a page shows. */
export const CONTRACT_FIELDS = {
  primaryMetric: "metric",
  direction: "metric direction",
  splitSha256: "split contract",
  evaluatorVersion: "evaluator version",
  snapshotSha256: "evaluation snapshot",
  partition: "scored partition",
} as const;

export const ZDifference = z.strictObject({ field: z.string(), words: z.string(), a: z.unknown(), b: z.unknown() });
export const ZComparability = z.discriminatedUnion("comparable", [
  z.strictObject({ comparable: z.literal(true), reason: z.string() }),
  z.strictObject({ comparable: z.literal(false), reason: z.string(), differences: z.array(ZDifference) }),
]);
export type Comparability = z.infer<typeof ZComparability>;

/**
 * Two receipts' contracts field by field (`fields`: the ones this code knows, in words),
 * then by hash: the same fields under another hash is a field this code does not know yet.
 */
function contractComparability<C extends Record<string, unknown>>(
  fields: Record<keyof C & string, string>,
  a: { contract: C; sha256: string },
  b: { contract: C; sha256: string },
  sameWords: string,
): Comparability {
  const differences = (Object.keys(fields) as (keyof C & string)[])
    .filter((k) => a.contract[k] !== b.contract[k])
    .map((k) => ({ field: k, words: fields[k], a: a.contract[k], b: b.contract[k] }));
  if (differences.length) {
    const words = differences.map((d) => d.words);
    const list = words.length === 1 ? words[0] : `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
    return { comparable: false, differences, reason: `Not comparable: the ${list} ${words.length === 1 ? "differs" : "differ"}.` };
  }
  if (a.sha256 !== b.sha256) return { comparable: false, differences: [], reason: "Not comparable: the evaluation contracts differ (their hashes are not equal)." };
  return { comparable: true, reason: sameWords };
}

const tabularComparability = (a: Receipt, b: Receipt) =>
  contractComparability(
    CONTRACT_FIELDS,
    { contract: a.evaluationContract, sha256: a.contractSha256 },
    { contract: b.evaluationContract, sha256: b.contractSha256 },
    `Both scored ${a.primaryMetric} on the same split, snapshot and evaluator.`,
  );

const loraComparability = (a: LoraEvidence, b: LoraEvidence) =>
  contractComparability(
    LORA_CONTRACT_FIELDS,
    { contract: a.receipt.evaluationContract, sha256: a.receipt.contractSha256 },
    { contract: b.receipt.evaluationContract, sha256: b.receipt.contractSha256 },
    "Both scored the loss per answer token on the same evaluation set, base model snapshot, max length, masking and evaluator.",
  );

export function comparability(a: VersionEvidence, b: VersionEvidence): Comparability {
  if (a.kind === "tabular" && b.kind === "tabular") return tabularComparability(a.receipt, b.receipt);
  if (a.kind === "lora" && b.kind === "lora") return loraComparability(a, b);
  const [sa, sb] = [scoreOf(a), scoreOf(b)];
  return {
    comparable: false,
    differences: [{ field: "kind", words: "kind of model", a: a.kind, b: b.kind }],
    reason: `Not comparable: one is ${KIND_WORDS[a.kind]} scored by ${sa.metric}, the other ${KIND_WORDS[b.kind]} scored by ${sb.metric}; their scores measure different things.`,
  };
}

/** Why the version's evidence is not about this exact version; null when it is. */
export function evidenceMismatch(v: GateVersion): string | null {
  const e = v.evidence;
  if (e.kind === "lora") return loraEvidenceMismatch(e, v);
  const r = e.receipt;
  if (r.hashes.exportSha256 !== v.modelSha256) return `its receipt scored model ${r.hashes.exportSha256 ?? "(none)"}, not this version's ${v.modelSha256}`;
  if (r.hashes.snapshotSha256 !== v.snapshotSha256) return "its receipt scored another data snapshot";
  if (r.contractSha256 !== v.evaluationContractHash) return "its receipt's evaluation contract is not the one recorded";
  return null;
}

const fmt = (x: number) => x.toPrecision(4);

export const ZGateDecision = z.discriminatedUnion("verdict", [
  /** Nothing is selected: the first promotion needs no comparison. */
  z.strictObject({ verdict: z.literal("first"), reason: z.string() }),
  z.strictObject({ verdict: z.literal("better"), reason: z.string(), metric: z.string(), candidate: z.number(), selected: z.number(), improvement: z.number() }),
  z.strictObject({
    verdict: z.literal("needs_acknowledgement"),
    why: z.enum(["not_comparable", "not_better"]),
    reason: z.string(),
    comparability: ZComparability,
    metric: z.string(),
    candidate: z.number(),
    selected: z.number(),
    improvement: z.number().nullable(),
  }),
  z.strictObject({ verdict: z.literal("needs_evaluation"), reason: z.string() }),
  z.strictObject({ verdict: z.literal("export_missing"), reason: z.string() }),
  z.strictObject({ verdict: z.literal("already_selected"), reason: z.string() }),
]);
export type GateDecision = z.infer<typeof ZGateDecision>;

/** May `candidate` take the alias from `current` (null: the alias points nowhere yet)? */
export function gate(candidate: GateVersion, current: GateVersion | null, minUsefulGain: number): GateDecision {
  if (candidate.status !== "registered") {
    return { verdict: "export_missing", reason: `Version ${candidate.number}'s export is missing from managed storage; it cannot be promoted.` };
  }
  const mismatch = evidenceMismatch(candidate);
  if (mismatch) return { verdict: "needs_evaluation", reason: `Version ${candidate.number} needs evaluation: ${mismatch}.` };
  if (!current) return { verdict: "first", reason: `Nothing is selected yet: version ${candidate.number} is the first.` };
  if (current.number === candidate.number) return { verdict: "already_selected", reason: `Version ${candidate.number} already holds it.` };
  const c = scoreOf(candidate.evidence);
  const s = scoreOf(current.evidence);
  const comp = comparability(candidate.evidence, current.evidence);
  const base = { metric: c.metric, candidate: c.value, selected: s.value };
  if (!comp.comparable) {
    return { verdict: "needs_acknowledgement", why: "not_comparable", reason: comp.reason, comparability: comp, ...base, improvement: null };
  }
  const improvement = improvementOf(c, c.value, s.value);
  const change = `${c.metric}: ${fmt(s.value)} → ${fmt(c.value)}`;
  if (improvement >= minUsefulGain) {
    return { verdict: "better", reason: `Better by at least the minimum useful gain (${minUsefulGain}): ${change}.`, ...base, improvement };
  }
  const words = improvement < 0 ? `a regression on ${change}` : `no useful gain on ${change} (less than ${minUsefulGain})`;
  return { verdict: "needs_acknowledgement", why: "not_better", reason: `Promoting version ${candidate.number} is ${words}.`, comparability: comp, ...base, improvement };
}
