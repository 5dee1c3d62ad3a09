/**
 * A promotion candidate's state moves through contracts/lifecycles
 * promotionCandidateLifecycle with the one transition() (events in LifecycleEvent under
 * "promotion candidate"); every committed move is published as its model's change.
 */
import { promotionCandidateLifecycle, type PromotionCandidateState, type PromotionCandidateStateData } from "@/contracts/lifecycles";
import type { Db } from "@/server/db/client";
import { publish } from "@/server/events/bus";
import { recordIn } from "@/server/lifecycle/events";
import { transition, type LifecycleStore } from "@/server/lifecycle/transition";

export interface CandidatePatch {
  decidedBy?: string;
}

export const candidateStore: LifecycleStore<PromotionCandidateState, CandidatePatch> = {
  lifecycle: promotionCandidateLifecycle,
  read: async (tx, id) => (await tx.promotionCandidate.findUnique({ where: { id }, select: { state: true } }))?.state ?? null,
  write: async (tx, id, move, patch) =>
    (
      await tx.promotionCandidate.updateMany({
        where: { id, state: move.from },
        data: { ...patch, state: move.to, reason: move.reason, stateData: move.data === null ? null : JSON.stringify(move.data) },
      })
    ).count,
  record: recordIn(promotionCandidateLifecycle.name),
};

type DataOf<T extends PromotionCandidateState> = T extends keyof PromotionCandidateStateData ? PromotionCandidateStateData[T] : never;

/** `data`: the state's typed payload (required by the states that carry one: the switch, the bake, the revert). */
export async function moveCandidate<T extends PromotionCandidateState>(db: Db, id: string, to: T, reason: string, opts: { patch?: CandidatePatch; data?: DataOf<T> } = {}) {
  const moved = await transition(db, candidateStore, id, to, { reason, patch: opts.patch ?? {}, data: opts.data });
  if (moved.changed) {
    const c = await db.promotionCandidate.findUnique({ where: { id }, select: { modelId: true } });
    const m = c ? await db.registeredModel.findUnique({ where: { id: c.modelId }, select: { projectId: true } }) : null;
    if (c && m) publish({ type: "model.changed", modelId: c.modelId, projectId: m.projectId });
  }
  return moved;
}
