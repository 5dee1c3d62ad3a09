/**
 * Switch, roll back, stop and resume: each from the revision the caller decided on (a
 * stale one is a CONFLICT with the refreshed view), each switch an immutable release.
 * A switch to a version pins the deployment (it stops following an alias).
 */
import type { Db } from "@/server/db/client";
import { conflict } from "@/server/errors";
import type { Tx } from "@/server/lifecycle/transition";
import type { Actor } from "@/server/registry/registry.schema";
import { versionView } from "@/server/registry/registry-views";
import { evidenceFromColumns, KIND_WORDS } from "@/server/registry/version-evidence";
import { deploymentChanged, moveDeploymentIn } from "./deployment-store";
import { deploymentView, findDeployment } from "./deployment-views";
import { deploymentsRepository } from "./deployments.repository";
import { ZRollbackInput, ZStopResumeInput, ZSwitchInput, type ReleaseKind, type TRollbackInput, type TStopResumeInput, type TSwitchInput } from "./deployments.schema";
import { servableVersion, versionByNumber } from "./pick-release";
import { bringDown } from "./serving-runner";
import { carryOutSwitch, planSwitch } from "./switch-carry";

async function atRevision(tx: Tx, id: string, expected: number) {
  const d = await findDeployment(tx, id);
  if (d.revision !== expected) {
    throw conflict(`The deployment is at revision ${d.revision}, not ${expected}: it changed since you looked.`, {
      code: "stale_revision",
      deployment: await deploymentView(tx, d),
    });
  }
  return d;
}

/**
 * A deployment answers one kind's routes (/predict or /generate and /stream) for its whole
 * life, so its clients never find the route they call gone after a switch.
 */
async function sameKind(tx: Tx, currentReleaseId: string | null, versionId: string): Promise<void> {
  const repo = deploymentsRepository(tx);
  const current = currentReleaseId ? await repo.release(currentReleaseId) : null;
  const [was, next] = await Promise.all([current ? repo.version(current.versionId) : null, repo.versionOrThrow(versionId)]);
  const [a, b] = [was && evidenceFromColumns(was).kind, evidenceFromColumns(next).kind];
  if (!a || a === b) return;
  throw conflict(`Version ${next.number} is ${KIND_WORDS[b]} and this deployment serves ${KIND_WORDS[a]}; deploy it as a deployment of its own.`, { code: "other_kind" });
}

/**
 * Appends the release and makes it current, through `switching` (switch-carry.ts says
 * how: beside the current release when the computer has room for both, after unloading it
 * when not); a candidate that fails to load never becomes current.
 */
export async function release(db: Db, id: string, expected: number, versionId: string, kind: ReleaseKind, why: string, actor: Actor): Promise<void> {
  // Decided before the transaction (it may probe the computer); the revision check makes it the plan of the state the caller saw.
  const plan = await planSwitch(db, await findDeployment(db, id));
  const { d, r } = await db.$transaction(async (tx) => {
    const d = await atRevision(tx, id, expected);
    if (d.state !== "ready" && d.state !== "idle") throw conflict(`The deployment is ${d.state}; it can switch only while ready or idle (resume it first).`, { code: "not_ready" });
    await sameKind(tx, d.currentReleaseId, versionId);
    const repo = deploymentsRepository(tx);
    const last = await repo.latestRelease(id);
    const r = await repo.addRelease({ deploymentId: id, number: (last?.number ?? 0) + 1, versionId, kind, why, actor: JSON.stringify(actor) });
    const downtime = plan === "downtime";
    await moveDeploymentIn(tx, id, "switching", {
      reason: downtime ? `switching with a short downtime to release ${r.number}: the computer has no room for both, so the current release is unloaded first` : `switching to release ${r.number}`,
      data: { plan: downtime ? "downtime" : "overlap", toRelease: r.number },
    });
    if (kind !== "alias") await repo.stopFollowingAlias(id);
    return { d, r };
  });
  await deploymentChanged(db, id);
  await carryOutSwitch(db, d, r, plan);
}

export async function switchTo(db: Db, raw: TSwitchInput, actor: Actor): Promise<void> {
  const input = ZSwitchInput.parse(raw);
  const d = await findDeployment(db, input.deploymentId);
  const v = await versionByNumber(db, d.modelId, input.version);
  await release(db, d.id, input.expectedRevision, v.id, "switch", input.why, actor);
}

/** Back to an earlier release (the one before the current by default), as a new release. */
export async function rollbackTo(db: Db, raw: TRollbackInput, actor: Actor): Promise<void> {
  const input = ZRollbackInput.parse(raw);
  const d = await findDeployment(db, input.deploymentId);
  const repo = deploymentsRepository(db);
  const current = d.currentReleaseId ? await repo.release(d.currentReleaseId) : null;
  const earlier = input.toRelease
    ? await repo.releaseByNumber(d.id, input.toRelease)
    : await repo.earlierReleaseOfOtherVersion(d.id, current?.number ?? 0, current?.versionId ?? "");
  if (!earlier) throw conflict(input.toRelease ? `The deployment has no release ${input.toRelease}.` : "The deployment has no earlier release of another version to roll back to.", { code: "no_earlier_release" });
  const row = await repo.version(earlier.versionId);
  if (!row) throw conflict(`Release ${earlier.number}'s version no longer exists.`, { code: "export_missing" });
  await servableVersion(db, versionView(row));
  await release(db, d.id, input.expectedRevision, earlier.versionId, "rollback", `${input.why} (back to release ${earlier.number})`, actor);
}

export async function stop(db: Db, raw: TStopResumeInput): Promise<void> {
  const input = ZStopResumeInput.parse(raw);
  await db.$transaction(async (tx) => {
    await atRevision(tx, input.deploymentId, input.expectedRevision);
    await moveDeploymentIn(tx, input.deploymentId, "stopping", { reason: "stop requested" });
  });
  await deploymentChanged(db, input.deploymentId);
  await bringDown(db, input.deploymentId);
}

/** Moves to `loading`; bringing the release up is the caller's (serving-runner startUp). */
export async function resume(db: Db, raw: TStopResumeInput): Promise<void> {
  const input = ZStopResumeInput.parse(raw);
  await db.$transaction(async (tx) => {
    await atRevision(tx, input.deploymentId, input.expectedRevision);
    await moveDeploymentIn(tx, input.deploymentId, "loading", { reason: "resume requested", data: { cause: "start" } });
  });
  await deploymentChanged(db, input.deploymentId);
}
