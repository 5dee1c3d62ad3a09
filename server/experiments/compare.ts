/**
 * "Better than baseline" is decided only from two evaluation receipts with identical
 * evaluation contracts (training/evaluation/README.md; the same rule as compare.py).
 */
import { z } from "zod";
import type { Receipt } from "@/contracts/recipes";

/** The fields of a receipt (contracts/recipes ZReceipt) the decision reads. */
export interface ReceiptLike extends Pick<Receipt, "direction" | "contractSha256"> {
  primaryMetric: string;
  primaryValue: number | null;
  evaluationContract: Record<string, unknown>;
}

export const ZComparison = z.discriminatedUnion("comparable", [
  z.object({ comparable: z.literal(false), better: z.null(), reason: z.string() }),
  z.object({ comparable: z.literal(true), better: z.boolean(), reason: z.string(), improvement: z.number(), candidate: z.number(), baseline: z.number() }),
]);
export type Comparison = z.infer<typeof ZComparison>;

export function compareReceipts(candidate: ReceiptLike, baseline: ReceiptLike): Comparison {
  if (candidate.contractSha256 !== baseline.contractSha256) {
    const keys = new Set([...Object.keys(candidate.evaluationContract), ...Object.keys(baseline.evaluationContract)]);
    const differ = [...keys].filter(
      (k) => JSON.stringify(candidate.evaluationContract[k]) !== JSON.stringify(baseline.evaluationContract[k]),
    );
    return { comparable: false, better: null, reason: `evaluation contracts differ in: ${differ.join(", ") || "hash"}` };
  }
  const c = candidate.primaryValue;
  const b = baseline.primaryValue;
  if (c === null || b === null || !Number.isFinite(c) || !Number.isFinite(b)) {
    return { comparable: false, better: null, reason: `${candidate.primaryMetric} could not be computed for both` };
  }
  const improvement = candidate.direction === "higher_is_better" ? c - b : b - c;
  const better = improvement > 0;
  return {
    comparable: true,
    better,
    improvement,
    candidate: c,
    baseline: b,
    reason: better
      ? `${candidate.primaryMetric} ${c.toPrecision(4)} vs baseline ${b.toPrecision(4)}`
      : `${candidate.primaryMetric} ${c.toPrecision(4)} is not better than the baseline's ${b.toPrecision(4)}`,
  };
}
