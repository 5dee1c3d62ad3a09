/**
 * One step of a model's promotion policy (the "promotion policies" reconciler): pending
 * candidates past their time expire, a promotion under way takes its next step (bake-step.ts),
 * approved ones are carried out once none is under way, and each version registered since
 * the policy watches is judged once by the hard gates — refused, or, if it passes, waiting
 * for the owner (approval; a notification says so) or approved at once (automatic, within
 * its daily count and cooldown; past them it waits for the owner too).
 */
import type { Db } from "@/server/db/client";
import { notify } from "@/server/notifications/notify";
import { scheduleNow } from "@/server/schedules/clock";
import { findModel } from "@/server/registry/registry-views";
import { stepPromotion } from "./bake-step";
import { carryOut } from "./carry-out";
import { moveCandidate } from "./candidate-store";
import { passed, type CandidateEvidence } from "./evidence";
import { judgeVersion } from "./judge";
import { policiesRepository } from "./policies.repository";

const DAY_MS = 86_400_000;

type Policy = NonNullable<Awaited<ReturnType<ReturnType<typeof policiesRepository>["policyOf"]>>>;

/** Null when automatic mode may promote now, else why it waits for the owner instead. */
async function automaticHold(db: Db, p: Policy, now: Date): Promise<string | null> {
  const recent = await policiesRepository(db).promotedSince(p.modelId, new Date(now.getTime() - DAY_MS));
  if (recent.length >= p.maxPerDay) return `automatic promotions used up: ${recent.length} in the last 24 hours (at most ${p.maxPerDay})`;
  const last = recent[0]?.updatedAt;
  if (last && now.getTime() - last.getTime() < p.cooldownMinutes * 60_000) return `within the ${p.cooldownMinutes}-minute cooldown after the last automatic promotion`;
  return null;
}

async function judgeNew(db: Db, p: Policy, now: Date): Promise<void> {
  const repo = policiesRepository(db);
  for (const v of await repo.unjudged(p.modelId, p.watchingSince)) {
    const evidence: CandidateEvidence = await judgeVersion(db, p.modelId, v.number, { maxExportMib: p.maxExportMib, maxLatencyMs: p.maxLatencyMs });
    const expiresAt = new Date(now.getTime() + p.approvalHours * 3600_000);
    const hold = passed(evidence) && p.mode === "automatic" ? await automaticHold(db, p, now) : null;
    const state = !passed(evidence) ? "refused" : p.mode === "automatic" && !hold ? "approved" : "pending";
    const reason = state === "refused" ? evidence.words : state === "approved" ? "the hard gates passed (automatic mode)" : hold ? `waits for the owner: ${hold}` : "waits for the owner's approval";
    const row = await repo.createCandidate({ modelId: p.modelId, versionId: v.id, state, evidence: JSON.stringify(evidence), reason, expiresAt }).catch(async (err: unknown) => {
      // Judged at the same moment by another sweep: the first row stands.
      if ((err as { code?: string }).code === "P2002") return null;
      throw err;
    });
    if (row?.state === "pending") {
      const model = await findModel(db, p.modelId);
      await notify(db, {
        id: `promotion-candidate:${row.id}`,
        kind: "decision_waiting",
        projectId: model.projectId,
        title: `Version ${v.number} of “${model.name}” waits for your approval`,
        body: `${evidence.words} Approve or reject it on the Models page before ${expiresAt.toISOString().slice(0, 16).replace("T", " ")} UTC.`,
        link: `/projects/${model.projectId}/ml/models`,
      });
    }
  }
}

export async function advancePolicy(db: Db, modelId: string, now = scheduleNow()): Promise<void> {
  const repo = policiesRepository(db);
  const p = await repo.policyOf(modelId);
  if (!p) return;
  for (const c of await repo.inState(modelId, "pending")) {
    if (c.expiresAt <= now) await moveCandidate(db, c.id, "expired", `not decided within ${p.approvalHours} hours`);
  }
  for (const c of await repo.underWay(modelId)) await stepPromotion(db, c, now);
  await carryOutApproved(db, modelId);
  await judgeNew(db, p, now);
  // An automatic approval just made is carried out in the same step.
  await carryOutApproved(db, modelId);
}

/**
 * The oldest approved candidate, while no other promotion is under way: an automatic
 * approval waits for the bake before it rather than ending it. (An owner's approval is
 * carried out at once by the service: a person's promotion during a bake wins.)
 */
async function carryOutApproved(db: Db, modelId: string): Promise<void> {
  const repo = policiesRepository(db);
  const [next] = await repo.inState(modelId, "approved");
  if (next && (await repo.underWay(modelId)).length === 0) await carryOut(db, next.id);
}
