/**
 * One step of a promotion after its alias moved (the promotion policies reconciler), each
 * decided from what is stored, so a controller killed at any point goes on from where the
 * rows say and never does a move twice:
 * - `switching`: waits until the deployment serves the candidate (the deployments reconciler
 *   switches a deployment that follows the alias), then the bake starts; a load that failed,
 *   or none within SWITCH_MINUTES, is a breach.
 * - `baking`: judges the candidate release's requests so far (bake-judge.ts).
 * - `reverting`: moves the alias back to the incumbent through the registry's rollback (the
 *   deployment follows it back, the reason in both histories) and tells the owner; a restart
 *   that finds the alias already back only records it.
 * A person's promote or rollback (the model's revision moved), or a switch, stop or delete
 * of the deployment, ends the bake `overridden`: their change stands.
 */
import type { BakeBreach, PromotionCandidateStateData } from "@/contracts/lifecycles";
import { ZCandidateBaking, ZCandidateReverting, ZCandidateSwitching } from "@/contracts/lifecycles";
import type { Db } from "@/server/db/client";
import { parseStoredJson } from "@/server/db/stored-json";
import { releaseStats } from "@/server/deployments/deployment-stats";
import { deploymentsRepository } from "@/server/deployments/deployments.repository";
import { servingJobOf } from "@/server/deployments/resident-serving";
import { isTerminal } from "@/server/jobs/job-state";
import { isDomainError } from "@/server/errors";
import { notify } from "@/server/notifications/notify";
import { aliasTarget } from "@/server/registry/promote";
import { SELECTED } from "@/server/registry/registry.schema";
import { findModel } from "@/server/registry/registry-views";
import { rollback } from "@/server/registry/rollback";
import { scheduleNow } from "@/server/schedules/clock";
import { judgeBake, type BakeFigures } from "./bake-judge";
import { moveCandidate } from "./candidate-store";

/** How long a deployment may take to serve the candidate before the promotion is reverted. */
export const SWITCH_MINUTES = 30;

type Candidate = { id: string; modelId: string; versionId: string; state: string; stateData: string | null };
/** What every state after the move carries: the deployment, the incumbent, the policy's revision and the plan. */
type Move = Omit<PromotionCandidateStateData["switching"], "since">;
const moveOf = (m: Move): Move => ({ deploymentId: m.deploymentId, incumbentVersionId: m.incumbentVersionId, incumbentVersion: m.incumbentVersion, aliasRevision: m.aliasRevision, plan: m.plan });

const minutesSince = (iso: string, now: Date) => (now.getTime() - new Date(iso).getTime()) / 60_000;

/** Why the bake no longer applies (a person changed the selection or the deployment), or null. */
async function overridden(db: Db, c: Candidate, m: Move): Promise<string | null> {
  const model = await findModel(db, c.modelId);
  if (model.revision !== m.aliasRevision) return `the selected version was moved during the bake (a promotion or rollback; the model is at revision ${model.revision}); that move stands`;
  const d = await db.deployment.findUnique({ where: { id: m.deploymentId } });
  if (!d) return "its deployment was deleted during the bake";
  if (d.followsAlias !== SELECTED) return `deployment "${d.name}" was switched away from the selected version during the bake; that switch stands`;
  if (d.state === "stopping" || d.state === "stopped") return `deployment "${d.name}" was stopped during the bake`;
  return null;
}

async function startReverting(db: Db, c: Candidate, m: Move, breach: BakeBreach, words: string, figures: BakeFigures | null) {
  await moveCandidate(db, c.id, "reverting", `going back to version ${m.incumbentVersion}: ${words}`, { data: { ...moveOf(m), breach, words, figures } });
}

async function stepSwitching(db: Db, c: Candidate, m: PromotionCandidateStateData["switching"], now: Date): Promise<void> {
  const why = await overridden(db, c, m);
  if (why) return void (await moveCandidate(db, c.id, "overridden", why));
  const repo = deploymentsRepository(db);
  const d = await repo.findOrThrow(m.deploymentId);
  const [current, latest] = await Promise.all([d.currentReleaseId ? repo.release(d.currentReleaseId) : null, repo.latestRelease(d.id)]);
  const version = (await db.modelVersion.findUnique({ where: { id: c.versionId }, select: { number: true } }))?.number;
  if (current?.versionId === c.versionId && (d.state === "ready" || d.state === "idle")) {
    const data = { ...moveOf(m), releaseId: current.id, releaseNumber: current.number, startedAt: now.toISOString() };
    return void (await moveCandidate(db, c.id, "baking", `deployment "${d.name}" serves version ${version} (release ${current.number}); the bake began`, { data }));
  }
  // A switch to the candidate that ended without it becoming current, its serving job failed:
  // it could not load. (One a restart cut keeps its job, and the deployment switches again.)
  if (latest?.versionId === c.versionId && latest.id !== current?.id && d.state !== "switching") {
    const job = await servingJobOf(db, latest.id);
    if (job && isTerminal(job.state) && job.state !== "succeeded") {
      return startReverting(db, c, m, "not_loaded", `deployment "${d.name}" could not load version ${version}${d.reason ? `: ${d.reason}` : ""}`, null);
    }
  }
  if (minutesSince(m.since, now) >= SWITCH_MINUTES) {
    return startReverting(db, c, m, "not_loaded", `deployment "${d.name}" did not serve version ${version} within ${SWITCH_MINUTES} minutes of the promotion`, null);
  }
}

/** What the release baking has answered so far (the bake's step and what a page shows of it). */
export async function bakeFigures(db: Db, releaseId: string): Promise<BakeFigures> {
  const [s] = await releaseStats(db, { releaseIds: [releaseId] });
  return s ? { requests: s.allTime.requests, failures: s.allTime.errors, p95Ms: s.allTime.p95Ms } : { requests: 0, failures: 0, p95Ms: null };
}

async function stepBaking(db: Db, c: Candidate, m: PromotionCandidateStateData["baking"], now: Date): Promise<void> {
  const why = await overridden(db, c, m);
  if (why) return void (await moveCandidate(db, c.id, "overridden", why));
  const d = await deploymentsRepository(db).findOrThrow(m.deploymentId);
  if (d.currentReleaseId !== m.releaseId && d.state !== "failed") {
    return void (await moveCandidate(db, c.id, "overridden", `deployment "${d.name}" serves another release than the one baking (release ${m.releaseNumber}); the bake ended`));
  }
  const figures = await bakeFigures(db, m.releaseId);
  const outcome = judgeBake(m.plan, figures, minutesSince(m.startedAt, now), d.state === "failed" ? (d.reason ?? "the deployment failed") : null);
  if (outcome.kind === "pass") await moveCandidate(db, c.id, "promoted", outcome.words);
  else if (outcome.kind === "revert") await startReverting(db, c, m, outcome.breach, outcome.words, figures);
}

async function stepReverting(db: Db, c: Candidate, r: PromotionCandidateStateData["reverting"]): Promise<void> {
  const model = await findModel(db, c.modelId);
  const number = (await db.modelVersion.findUnique({ where: { id: c.versionId }, select: { number: true } }))?.number;
  const back = (await aliasTarget(db, c.modelId, SELECTED))?.id === r.incumbentVersionId;
  if (!back) {
    if (model.revision !== r.aliasRevision) return void (await moveCandidate(db, c.id, "overridden", `the selected version was moved by hand before the bake could revert it; that move stands (the bake had found: ${r.words})`));
    try {
      await rollback(
        db,
        { modelId: c.modelId, to: r.incumbentVersion, expectedRevision: r.aliasRevision, reason: `promotion bake of version ${number}: ${r.words}` },
        { kind: "policy", name: "promotion policy (bake)" },
      );
    } catch (err) {
      if (!isDomainError(err)) throw err;
      // Moved meanwhile: decided again on the next pass, where a person's move wins.
      if (err.reason === "stale_revision") return;
      // The incumbent cannot be selected again (its export is gone): the owner decides, told why.
      await tellOwner(db, c, model, number, r, `It could not go back to version ${r.incumbentVersion}: ${err.message} Version ${number} stays selected; roll back by hand.`);
      return void (await moveCandidate(db, c.id, "failed", `could not revert to version ${r.incumbentVersion}: ${err.message} (the bake had found: ${r.words})`));
    }
  }
  await tellOwner(db, c, model, number, r, `The selected version and the deployment following it went back to version ${r.incumbentVersion}.`);
  await moveCandidate(db, c.id, "reverted", `reverted to version ${r.incumbentVersion}: ${r.words}`, { data: r });
}

/** The notification's id is the candidate's: a restart that repeats the step tells the owner once. */
async function tellOwner(db: Db, c: Candidate, model: { name: string; projectId: string }, number: number | undefined, r: PromotionCandidateStateData["reverting"], outcome: string) {
  await notify(db, {
    id: `promotion-reverted:${c.id}`,
    kind: "promotion_reverted",
    projectId: model.projectId,
    title: `The bake of version ${number} of “${model.name}” failed`,
    body: `The bake after its promotion found: ${r.words}. ${outcome}`,
    link: `/projects/${model.projectId}/ml/models`,
  });
}

/** One step of a candidate whose promotion is under way (switching, baking or reverting). */
export async function stepPromotion(db: Db, c: Candidate, now = scheduleNow()): Promise<void> {
  if (c.state === "switching") {
    const m = parseStoredJson(ZCandidateSwitching, c.stateData);
    if (m) await stepSwitching(db, c, m, now);
  } else if (c.state === "baking") {
    const m = parseStoredJson(ZCandidateBaking, c.stateData);
    if (m) await stepBaking(db, c, m, now);
  } else if (c.state === "reverting") {
    const r = parseStoredJson(ZCandidateReverting, c.stateData);
    if (r) await stepReverting(db, c, r);
  }
}
