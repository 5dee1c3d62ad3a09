/**
 * Carrying out an approved candidate: the model's "selected" alias moves to it through the
 * registry's promote (the same gate and history as a person's promotion, actor "policy"),
 * and a deployment following the alias switches with it (server/deployments), which the
 * bake then watches (bake-plan.ts, bake-step.ts). It applies only at the model revision the
 * candidate was judged at: a promotion or rollback since (a person's) wins, and the
 * candidate fails saying so. Safe to repeat after a restart: a candidate whose version is
 * already selected goes on from the move, which is never made twice.
 */
import type { Db } from "@/server/db/client";
import { isDomainError } from "@/server/errors";
import { aliasTarget, promote } from "@/server/registry/promote";
import { scheduleNow } from "@/server/schedules/clock";
import { bakeAfterMove } from "./bake-plan";
import { moveCandidate } from "./candidate-store";
import { ZCandidateEvidence } from "./evidence";
import { policiesRepository } from "./policies.repository";

/** The alias is on the candidate: baked on the policy's deployment, or promoted at once. */
async function afterMove(db: Db, c: { id: string; modelId: string; versionId: string }, number: number): Promise<void> {
  const p = await policiesRepository(db).policyOf(c.modelId);
  const bake = p ? await bakeAfterMove(db, p, c.modelId, c.versionId, scheduleNow()) : null;
  if (bake && "switching" in bake) {
    const d = await db.deployment.findUnique({ where: { id: bake.switching.deploymentId }, select: { name: true } });
    await moveCandidate(db, c.id, "switching", `version ${number} is selected; deployment "${d?.name}" switches to it, then bakes`, { data: bake.switching });
    return;
  }
  await moveCandidate(db, c.id, "promoted", `version ${number} is selected${bake && p?.deploymentId ? ` (${bake.none})` : ""}`);
}

export async function carryOut(db: Db, candidateId: string): Promise<void> {
  const c = await db.promotionCandidate.findUnique({ where: { id: candidateId } });
  if (!c || c.state !== "approved") return;
  const version = await db.modelVersion.findUnique({ where: { id: c.versionId }, select: { number: true } });
  if (!version) {
    await moveCandidate(db, c.id, "failed", "the version was removed before it could be promoted");
    return;
  }
  if ((await aliasTarget(db, c.modelId, "selected"))?.id === c.versionId) {
    await afterMove(db, c, version.number);
    return;
  }
  const evidence = ZCandidateEvidence.parse(JSON.parse(c.evidence));
  try {
    await promote(
      db,
      {
        modelId: c.modelId,
        version: version.number,
        alias: "selected",
        reason: `promotion policy: ${evidence.words}`,
        // A holdout win is the evidence for versions whose test receipts do not compare.
        acceptRegression: evidence.kind === "holdout",
        expectedRevision: evidence.judgedRevision,
      },
      { kind: "policy", name: "promotion policy" },
    );
  } catch (err) {
    if (!isDomainError(err) || err.code !== "CONFLICT") throw err;
    // The owner's approval and the controller's sweep may carry the same candidate out at
    // once: the one that lost the race finds the move made (or the candidate ended) and stops.
    const now = await db.promotionCandidate.findUnique({ where: { id: c.id }, select: { state: true } });
    if (now?.state !== "approved") return;
    if ((await aliasTarget(db, c.modelId, "selected"))?.id === c.versionId) {
      await afterMove(db, c, version.number);
      return;
    }
    await moveCandidate(db, c.id, "failed", `not promoted: ${err.message}`);
    return;
  }
  await afterMove(db, c, version.number);
}
