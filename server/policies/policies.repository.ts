/** Promotion policies and their candidates (prisma PromotionPolicy, PromotionCandidate). */
import { getDb, type Db } from "@/server/db/client";
import type { PromotionCandidateState } from "@/contracts/lifecycles";

const UNDER_WAY = ["switching", "baking", "reverting"] as const satisfies readonly PromotionCandidateState[];
/** States a candidate reaches only after the policy moved the alias to it. */
const MOVED = [...UNDER_WAY, "promoted", "reverted", "overridden"] as const satisfies readonly PromotionCandidateState[];

export function policiesRepository(db: Db = getDb()) {
  return {
    policyOf: (modelId: string) => db.promotionPolicy.findUnique({ where: { modelId } }),
    policyOnDeployment: (deploymentId: string) => db.promotionPolicy.findFirst({ where: { deploymentId }, select: { modelId: true } }),
    modelsWithPolicy: () => db.promotionPolicy.findMany({ select: { modelId: true } }).then((rows) => rows.map((r) => ({ id: r.modelId }))),
    candidates: (modelId: string) => db.promotionCandidate.findMany({ where: { modelId }, orderBy: { createdAt: "desc" } }),
    candidate: (id: string) => db.promotionCandidate.findUnique({ where: { id } }),
    inState: (modelId: string, state: PromotionCandidateState) => db.promotionCandidate.findMany({ where: { modelId, state }, orderBy: { createdAt: "asc" } }),
    /** Versions registered since the policy watches that no candidate row judged yet, oldest first. */
    async unjudged(modelId: string, since: Date) {
      const [versions, judged] = await Promise.all([
        db.modelVersion.findMany({ where: { modelId, createdAt: { gte: since }, status: { not: "removed" } }, orderBy: { number: "asc" }, select: { id: true, number: true } }),
        db.promotionCandidate.findMany({ where: { modelId }, select: { versionId: true } }),
      ]);
      const seen = new Set(judged.map((c) => c.versionId));
      return versions.filter((v) => !seen.has(v.id));
    },
    /** Candidates whose promotion is under way: the alias moved, the bake or its revert not ended. */
    underWay: (modelId: string) => db.promotionCandidate.findMany({ where: { modelId, state: { in: [...UNDER_WAY] } }, orderBy: { createdAt: "asc" } }),
    /** Policy promotions of the model since `since`, however they ended (automatic mode's daily count and cooldown). */
    promotedSince: (modelId: string, since: Date) =>
      db.promotionCandidate.findMany({ where: { modelId, state: { in: [...MOVED] }, updatedAt: { gte: since } }, orderBy: { updatedAt: "desc" }, select: { updatedAt: true } }),
    createCandidate: (data: { modelId: string; versionId: string; state: PromotionCandidateState; evidence: string; reason: string; expiresAt: Date }) =>
      db.promotionCandidate.create({ data }),
  };
}
