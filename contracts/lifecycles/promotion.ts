/**
 * A promotion candidate (issue 32): a new version of a model with a promotion policy, judged
 * once by the policy's hard gates when it is found. One that fails them is `refused` with the
 * evidence; one that passes waits for the owner (`pending`, approval mode) or is `approved`
 * at once (automatic mode, within its daily count and cooldown). An approved candidate is
 * carried out by the controller — the model's "selected" alias moves, and a deployment that
 * follows the alias switches with it — and ends `promoted`, or `failed` with why (the model
 * moved meanwhile). A pending one the owner does not decide on in time `expired`.
 */
import { defineLifecycle } from "./define";

export const promotionCandidateLifecycle = defineLifecycle({
  name: "promotion candidate",
  states: ["pending", "approved", "promoted", "rejected", "expired", "refused", "failed"],
  initial: ["pending", "approved", "refused"],
  terminal: ["promoted", "rejected", "expired", "refused", "failed"],
  transitions: {
    pending: ["approved", "rejected", "expired"],
    approved: ["promoted", "failed"],
    promoted: [],
    rejected: [],
    expired: [],
    refused: [],
    failed: [],
  },
});

export type PromotionCandidateState = (typeof promotionCandidateLifecycle.states)[number];
