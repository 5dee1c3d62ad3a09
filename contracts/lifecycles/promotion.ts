/**
 * A promotion candidate (issue 32): a new version of a model with a promotion policy, judged
 * once by the policy's hard gates when it is found. One that fails them is `refused` with the
 * evidence; one that passes waits for the owner (`pending`, approval mode) or is `approved`
 * at once (automatic mode, within its daily count and cooldown). A pending one the owner
 * does not decide on in time `expired`.
 *
 * An approved candidate is carried out by the controller: the model's "selected" alias moves
 * to it. Without a deployment to watch (none set, none following the alias, or nothing
 * selected before to go back to) it is then `promoted`. With one, it is `switching` until the
 * deployment serves it, then `baking`: the bake passes after enough requests and minutes
 * (`promoted`), or a breach — too many failures, a slow p95, a serving process that failed,
 * a load that never came, or too little traffic by the deadline where the policy says so —
 * starts `reverting` the alias to the incumbent (the deployment follows it back), and it ends
 * `reverted`. A person's promote, rollback, switch or stop of the deployment meanwhile ends
 * it `overridden`: their change stands. `failed`: it could not be carried out (the model
 * moved between the approval and the move), or a revert could not be (the incumbent's export
 * is gone): the owner is told, and decides.
 */
import { z } from "zod";
import { defineLifecycle } from "./define";

/** What the bake asks of the candidate, frozen when the alias moved. */
export const ZBakePlan = z.strictObject({
  /** It passes after at least this many requests and this many minutes (both). */
  requests: z.int().nonnegative(),
  minutes: z.int().nonnegative(),
  /** With fewer requests than that this long after the bake began, the candidate is kept or reverted. */
  deadlineHours: z.int().positive(),
  lowTraffic: z.enum(["keep", "revert"]),
  /** The health limits: the deployment's armed monitor policy at the move, else the monitoring defaults. */
  limits: z.strictObject({ maxFailureRate: z.number().min(0).max(1), maxP95Ms: z.number().positive().nullable(), minRequests: z.int().positive() }),
  limitsFrom: z.enum(["monitor", "defaults"]),
});
export type BakePlan = z.infer<typeof ZBakePlan>;

/** The move the policy made, and what it goes back to. */
const promotionMove = {
  deploymentId: z.string(),
  incumbentVersionId: z.string(),
  incumbentVersion: z.int().positive(),
  /** The model revision the policy's alias move created: a different one means a person moved it since. */
  aliasRevision: z.int().positive(),
  plan: ZBakePlan,
};

export const ZCandidateSwitching = z.strictObject({ ...promotionMove, since: z.iso.datetime() });
export const ZCandidateBaking = z.strictObject({ ...promotionMove, releaseId: z.string(), releaseNumber: z.int().positive(), startedAt: z.iso.datetime() });

export const BAKE_BREACHES = ["failure_rate", "p95", "serving_failed", "not_loaded", "low_traffic"] as const;
export const ZBakeBreach = z.enum(BAKE_BREACHES);
export type BakeBreach = z.infer<typeof ZBakeBreach>;

/** What the bake saw when it ended: its requests and failures on the candidate's release. */
export const ZBakeFigures = z.strictObject({ requests: z.int().nonnegative(), failures: z.int().nonnegative(), p95Ms: z.number().nullable() });

export const ZCandidateReverting = z.strictObject({ ...promotionMove, breach: ZBakeBreach, words: z.string(), figures: ZBakeFigures.nullable() });
export const ZCandidateReverted = ZCandidateReverting;

export const promotionCandidateLifecycle = defineLifecycle({
  name: "promotion candidate",
  states: ["pending", "approved", "switching", "baking", "reverting", "promoted", "reverted", "overridden", "rejected", "expired", "refused", "failed"],
  initial: ["pending", "approved", "refused"],
  terminal: ["promoted", "reverted", "overridden", "rejected", "expired", "refused", "failed"],
  transitions: {
    pending: ["approved", "rejected", "expired"],
    approved: ["switching", "promoted", "failed"],
    switching: ["baking", "reverting", "overridden"],
    baking: ["promoted", "reverting", "overridden"],
    reverting: ["reverted", "overridden", "failed"],
    promoted: [],
    reverted: [],
    overridden: [],
    rejected: [],
    expired: [],
    refused: [],
    failed: [],
  },
  payloads: { switching: ZCandidateSwitching, baking: ZCandidateBaking, reverting: ZCandidateReverting, reverted: ZCandidateReverted },
});

export type PromotionCandidateState = (typeof promotionCandidateLifecycle.states)[number];

export interface PromotionCandidateStateData {
  switching: z.infer<typeof ZCandidateSwitching>;
  baking: z.infer<typeof ZCandidateBaking>;
  reverting: z.infer<typeof ZCandidateReverting>;
  reverted: z.infer<typeof ZCandidateReverted>;
}
