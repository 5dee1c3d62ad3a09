/**
 * What a policy's hard gates found about a candidate, stored with it (PromotionCandidate
 * .evidence) and shown on approval: either the same evaluation contract as the version in
 * use with a real gain (the registry's own gate, server/registry/gate.ts), or — for a
 * version trained on other data — a win on the project's holdout whose interval excludes a
 * loss (server/holdouts). Anything else is a refusal with its reason. `judgedRevision` is
 * the model's revision when it was judged: a promotion carried out later applies only if
 * nothing moved the model since.
 */
import { z } from "zod";

const measured = z.strictObject({ value: z.number(), limit: z.number() });
const base = {
  judgedRevision: z.int().positive(),
  incumbent: z.int().positive().nullable(),
  words: z.string(),
  /** A candidate that passed the policy's limits: what was measured against each limit set (absent: none set). */
  limits: z.strictObject({ exportMib: measured.nullable(), p95Ms: measured.nullable() }).optional(),
};

export const ZCandidateEvidence = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("first"), ...base }),
  z.strictObject({
    kind: z.literal("same_contract"),
    ...base,
    metric: z.string(),
    candidateValue: z.number(),
    incumbentValue: z.number(),
    improvement: z.number(),
    minUsefulGain: z.number(),
  }),
  z.strictObject({
    kind: z.literal("holdout"),
    ...base,
    holdout: z.strictObject({ id: z.string(), name: z.string() }),
    metric: z.string(),
    direction: z.enum(["higher_is_better", "lower_is_better"]),
    /** What `rows` counts: a table's rows, or a fine-tune holdout's examples (evidence kept before says rows). */
    unit: z.enum(["rows", "examples"]).default("rows"),
    rows: z.int(),
    results: z.array(z.strictObject({ version: z.int(), value: z.number() })),
    difference: z.strictObject({ estimate: z.number(), low: z.number(), high: z.number(), confidence: z.number() }),
  }),
  z.strictObject({ kind: z.literal("refused"), ...base }),
]);
export type CandidateEvidence = z.infer<typeof ZCandidateEvidence>;

export const passed = (e: CandidateEvidence) => e.kind !== "refused";
