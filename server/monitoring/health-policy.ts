/**
 * A monitor's health policy acting on its deployment: after each judged window it decides
 * (policy-decision.ts) and, when the release failed, rolls the deployment back to the
 * release the owner approved, as a release like any other (kind rollback, actor "policy",
 * the breach in its why). It never flaps: `fired` is final, automatic actions on a
 * deployment are spaced by the cooldown and capped per 24 hours, and a deployment whose
 * owner changed what it serves is left alone (manual changes win).
 */
import { healthPolicyLifecycle, ZPolicyArmed, type HealthPolicyState, type HealthPolicyStateData } from "@/contracts/lifecycles";
import { ZHealthPolicy, type HealthPolicy } from "@/contracts/monitoring/monitoring";
import type { Db } from "@/server/db/client";
import { parseStoredJson } from "@/server/db/stored-json";
import { rollbackTo } from "@/server/deployments/deployment-actions";
import { isDomainError } from "@/server/errors";
import { recordIn } from "@/server/lifecycle/events";
import { transition, type LifecycleStore } from "@/server/lifecycle/transition";
import { monitorChanged } from "./monitor-store";
import { windowView } from "./monitor-views";
import { decide } from "./policy-decision";
import { deploymentsRepository } from "@/server/deployments/deployments.repository";

export const policyStore: LifecycleStore<HealthPolicyState, { policy?: string }> = {
  lifecycle: healthPolicyLifecycle,
  read: async (tx, id) => (await tx.monitor.findUnique({ where: { id }, select: { policyState: true } }))?.policyState ?? null,
  write: async (tx, id, move, patch) =>
    (
      await tx.monitor.updateMany({
        where: { id, policyState: move.from },
        data: { ...patch, policyState: move.to, policyReason: move.reason, policyStateData: move.data === null ? null : JSON.stringify(move.data) },
      })
    ).count,
  record: recordIn(healthPolicyLifecycle.name),
};

type DataOf<T extends HealthPolicyState> = T extends keyof HealthPolicyStateData ? HealthPolicyStateData[T] : never;

export async function movePolicy<T extends HealthPolicyState>(db: Db, id: string, to: T, move: { reason: string; data?: DataOf<T>; policy?: HealthPolicy }) {
  const result = await transition(db, policyStore, id, to, { reason: move.reason, data: move.data, patch: move.policy ? { policy: JSON.stringify(move.policy) } : {} });
  if (result.changed) await monitorChanged(db, id);
  return result;
}

/** The window a policy armed now judges from: the open one (it may hold requests already), or the next. */
export async function currentWindowSeq(db: Db, monitorId: string): Promise<number> {
  const last = await db.monitorWindow.findFirst({ where: { monitorId }, orderBy: { seq: "desc" }, select: { seq: true, closedAt: true } });
  return !last ? 1 : last.closedAt ? last.seq + 1 : last.seq;
}

const DAY_MS = 24 * 3600_000;
const POLICY_ACTOR = '"kind":"policy"';

/** One step of an armed policy, after its monitor's windows were judged. */
export async function applyPolicy(db: Db, monitorId: string): Promise<void> {
  const m = await db.monitor.findUnique({ where: { id: monitorId } });
  const policy = m?.policyState === "armed" ? parseStoredJson(ZHealthPolicy, m.policy) : null;
  const armed = m && policy ? parseStoredJson(ZPolicyArmed, m.policyStateData) : null;
  if (!m || !policy || !armed) return;
  const windows = await db.monitorWindow.findMany({ where: { monitorId, seq: { gte: armed.fromWindow } }, orderBy: { seq: "asc" } });
  const decision = decide(policy, windows.map(windowView));
  if (decision.kind === "none") return;
  if (decision.kind === "wait") return void (await movePolicy(db, monitorId, "waiting", { reason: decision.words, data: { cause: "inconclusive" } }));

  const d = await deploymentsRepository(db).findOrThrow(m.deploymentId);
  if (d.currentReleaseId !== m.releaseId) {
    return void (await movePolicy(db, monitorId, "paused", { reason: `${decision.words}, but the deployment no longer serves the release this policy watches (it was changed by hand); it does nothing` }));
  }
  // Rollbacks a health policy made (an alias the deployment follows moves it as "policy" too, as kind alias).
  const recent = await deploymentsRepository(db).rollbacksBySince(d.id, POLICY_ACTOR, new Date(Date.now() - DAY_MS));
  if (recent.length >= policy.maxActionsPerDay) {
    return void (await movePolicy(db, monitorId, "waiting", { reason: `${decision.words}; no automatic action is left today (${policy.maxActionsPerDay} in 24 hours): roll back by hand, or arm it again`, data: { cause: "daily_limit" } }));
  }
  // Within the cooldown of the last automatic action: decided again on a later pass.
  if (recent[0] && Date.now() - recent[0].createdAt.getTime() < policy.cooldownMinutes * 60_000) return;
  try {
    await rollbackTo(db, { deploymentId: d.id, expectedRevision: d.revision, why: `health policy: ${decision.words}`, toRelease: policy.rollbackTo }, { kind: "policy", name: `health policy of monitor ${monitorId}` });
  } catch (err) {
    // Not ready (loading, restarting) or changed meanwhile: decided again on the next pass, where a manual change wins.
    if (isDomainError(err) && (err.reason === "not_ready" || err.reason === "stale_revision")) return;
    // Refused for good (the approved release's export is gone, another kind): the owner decides, told why.
    if (isDomainError(err)) {
      return void (await movePolicy(db, monitorId, "waiting", { reason: `${decision.words}; rolling back to release ${policy.rollbackTo} was refused: ${err.message}`, data: { cause: "refused" } }));
    }
    throw err;
  }
  const made = await deploymentsRepository(db).latestRollback(d.id);
  await movePolicy(db, monitorId, "fired", { reason: `rolled back to release ${policy.rollbackTo}: ${decision.words}`, data: { toRelease: policy.rollbackTo, newRelease: made?.number ?? null, breach: decision.breach } });
}
