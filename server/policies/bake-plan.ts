/**
 * Whether a promotion the policy just made is baked, and on what terms: only when the
 * policy names a deployment that still follows the "selected" alias and is not stopped, and
 * something was selected before (the incumbent the bake can go back to). The terms are
 * frozen here: the policy's request and minute counts, and the health limits of the
 * deployment's armed monitor policy at this moment (the monitoring defaults without one).
 */
import { ZBakePlan, type BakePlan, type PromotionCandidateStateData } from "@/contracts/lifecycles";
import { ZHealthPolicy } from "@/contracts/monitoring/monitoring";
import type { Db } from "@/server/db/client";
import { parseStoredJson } from "@/server/db/stored-json";
import { SELECTED } from "@/server/registry/registry.schema";
import { registryRepository } from "@/server/registry/registry.repository";
import type { policiesRepository } from "./policies.repository";

type Policy = NonNullable<Awaited<ReturnType<ReturnType<typeof policiesRepository>["policyOf"]>>>;

async function limitsOf(db: Db, deploymentId: string, releaseId: string | null): Promise<Pick<BakePlan, "limits" | "limitsFrom">> {
  const m = releaseId ? await db.monitor.findUnique({ where: { deploymentId_releaseId: { deploymentId, releaseId } } }) : null;
  const armed = m?.policyState === "armed" ? parseStoredJson(ZHealthPolicy, m.policy) : null;
  // The defaults are the monitoring issue's own (rollbackTo plays no part in a bake).
  const p = armed ?? ZHealthPolicy.parse({ rollbackTo: 1 });
  return { limits: { maxFailureRate: p.maxFailureRate, maxP95Ms: p.maxP95Ms, minRequests: p.minRequests }, limitsFrom: armed ? "monitor" : "defaults" };
}

/**
 * The switch to watch after the policy moved the alias to `versionId`, or why there is no
 * bake (the candidate is then simply promoted). Read from the alias event the move wrote, so
 * a restart between the move and this step finds the same incumbent and revision.
 */
export async function bakeAfterMove(db: Db, p: Policy, modelId: string, versionId: string, now: Date): Promise<{ switching: PromotionCandidateStateData["switching"] } | { none: string }> {
  if (!p.deploymentId) return { none: "no deployment to bake on" };
  const d = await db.deployment.findUnique({ where: { id: p.deploymentId } });
  if (!d) return { none: "its deployment was deleted, so there is no bake" };
  if (d.followsAlias !== SELECTED) return { none: `deployment "${d.name}" no longer follows the selected version, so there is no bake` };
  if (d.state === "stopped" || d.state === "stopping") return { none: `deployment "${d.name}" is stopped, so there is no bake` };
  const move = (await registryRepository(db).aliasEventsNewestFirst(modelId, SELECTED)).find((e) => e.toVersionId === versionId);
  const incumbent = move?.fromVersionId ? await db.modelVersion.findUnique({ where: { id: move.fromVersionId }, select: { id: true, number: true } }) : null;
  if (!move || !incumbent) return { none: "nothing was selected before, so a bake would have nothing to go back to" };
  const plan = ZBakePlan.parse({
    requests: p.bakeRequests,
    minutes: p.bakeMinutes,
    deadlineHours: p.bakeDeadlineHours,
    lowTraffic: p.bakeLowTraffic,
    ...(await limitsOf(db, d.id, d.currentReleaseId)),
  });
  return {
    switching: { deploymentId: d.id, incumbentVersionId: incumbent.id, incumbentVersion: incumbent.number, aliasRevision: move.revision, plan, since: now.toISOString() },
  };
}
