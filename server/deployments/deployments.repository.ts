/**
 * Prisma access for deployments, their releases and keys, and the rows of other domains
 * they read (versions, models, computers, serving jobs, the last `ready` event). Plain
 * rows out. The client may be a transaction's (`Tx`): callers that need several writes to
 * commit together open the transaction and hand it in. The request guard loads this
 * module (deployment-key-check.ts), so it imports nothing but the client.
 * A deployment's state moves only through deployment-store.ts (the lifecycle's writer).
 */
import { getDb, type Db } from "@/server/db/client";
import type { Tx } from "@/server/lifecycle/transition";
import { WITH_EXCLUSION } from "@/server/registry/registry.repository";

export type DeploymentRow = NonNullable<Awaited<ReturnType<Db["deployment"]["findUnique"]>>>;
export type ReleaseRow = NonNullable<Awaited<ReturnType<Db["deploymentRelease"]["findUnique"]>>>;
type KeyRow = NonNullable<Awaited<ReturnType<Db["deploymentKey"]["findUnique"]>>>;

export type NewDeployment = Pick<
  DeploymentRow,
  "projectId" | "name" | "nameKey" | "mode" | "targetId" | "modelId" | "followsAlias" | "state" | "stateData" | "memoryGb" | "idleUnloadMinutes"
>;
export type NewRelease = Pick<ReleaseRow, "deploymentId" | "number" | "versionId" | "kind" | "why" | "actor">;
export type NewKey = Pick<KeyRow, "deploymentId" | "name" | "prefix" | "keyHash"> & { expiresAt?: Date };

export function deploymentsRepository(db: Db | Tx = getDb()) {
  return {
    ...deploymentQueries(db),
    ...releaseQueries(db),
    ...keyQueries(db),
    ...readsOfOtherDomains(db),
  };
}

function deploymentQueries(db: Db | Tx) {
  return {
    find: (id: string) => db.deployment.findUnique({ where: { id } }),
    findOrThrow: (id: string) => db.deployment.findUniqueOrThrow({ where: { id } }),
    findByNameKey: (projectId: string, nameKey: string) => db.deployment.findUnique({ where: { projectId_nameKey: { projectId, nameKey } } }),
    inProject: (projectId: string) => db.deployment.findMany({ where: { projectId }, orderBy: { createdAt: "desc" } }),
    currentReleasesInProject: (projectId: string) => db.deployment.findMany({ where: { projectId }, select: { id: true, currentReleaseId: true } }),
    /** What a `deployment.changed` event names. */
    projectAndState: (id: string) => db.deployment.findUnique({ where: { id }, select: { projectId: true, state: true } }),
    /** The budget and idle time its serving job is started with. */
    servingLimits: (id: string) => db.deployment.findUniqueOrThrow({ where: { id }, select: { memoryGb: true, idleUnloadMinutes: true } }),
    residentInState: (states: string[]) => db.deployment.findMany({ where: { mode: "resident", state: { in: states } } }),
    /** Deployments an alias move may switch: serving (or idle) and following an alias. */
    followingAliases: () => db.deployment.findMany({ where: { state: { in: ["ready", "idle"] }, followsAlias: { not: null } } }),
    /** The other resident deployments on a computer in `states` (those holding their memory budget there). */
    otherResidentsOn: (targetId: string, states: string[], exceptId: string) =>
      db.deployment.findMany({ where: { targetId, mode: "resident", state: { in: states }, id: { not: exceptId } } }),
    create: (data: NewDeployment) => db.deployment.create({ data }),
    setCurrentRelease: (id: string, currentReleaseId: string) => db.deployment.update({ where: { id }, data: { currentReleaseId } }),
    /** Pins the deployment to the version it serves (a switch or rollback by hand). */
    stopFollowingAlias: (id: string) => db.deployment.update({ where: { id }, data: { followsAlias: null } }),
  };
}

function releaseQueries(db: Db | Tx) {
  return {
    release: (id: string) => db.deploymentRelease.findUnique({ where: { id } }),
    releaseOrThrow: (id: string) => db.deploymentRelease.findUniqueOrThrow({ where: { id } }),
    releaseVersionId: (id: string) => db.deploymentRelease.findUnique({ where: { id }, select: { versionId: true } }),
    releaseByNumber: (deploymentId: string, number: number) => db.deploymentRelease.findUnique({ where: { deploymentId_number: { deploymentId, number } } }),
    latestRelease: (deploymentId: string) => db.deploymentRelease.findFirst({ where: { deploymentId }, orderBy: { number: "desc" } }),
    /** The newest release numbered below `before` that serves another version than `versionId`: what a rollback goes back to. */
    earlierReleaseOfOtherVersion: (deploymentId: string, before: number, versionId: string) =>
      db.deploymentRelease.findFirst({ where: { deploymentId, number: { lt: before }, versionId: { not: versionId } }, orderBy: { number: "desc" } }),
    releasesNewestFirst: (deploymentId: string) => db.deploymentRelease.findMany({ where: { deploymentId }, orderBy: { number: "desc" } }),
    /** Its rollbacks since `since` made by an actor whose words contain `actor` (a health policy counting its own). */
    rollbacksBySince: (deploymentId: string, actor: string, since: Date) =>
      db.deploymentRelease.findMany({ where: { deploymentId, kind: "rollback", actor: { contains: actor }, createdAt: { gte: since } }, orderBy: { createdAt: "desc" } }),
    latestRollback: (deploymentId: string) => db.deploymentRelease.findFirst({ where: { deploymentId, kind: "rollback" }, orderBy: { number: "desc" } }),
    addRelease: (data: NewRelease) => db.deploymentRelease.create({ data }),
  };
}

function keyQueries(db: Db | Tx) {
  return {
    addKey: (data: NewKey) => db.deploymentKey.create({ data }),
    keysOf: (deploymentId: string) => db.deploymentKey.findMany({ where: { deploymentId }, orderBy: { createdAt: "asc" } }),
    /** Removes the deployment's keys that expired before `at` (console keys): they can never be used again. */
    deleteExpiredKeys: (deploymentId: string, at: Date) => db.deploymentKey.deleteMany({ where: { deploymentId, expiresAt: { lte: at } } }),
    /** Revokes the deployment's active keys with this id or shown prefix; answers how many. */
    revokeActiveKeys: async (deploymentId: string, idOrPrefix: string, at: Date) =>
      (
        await db.deploymentKey.updateMany({
          where: { deploymentId, revokedAt: null, OR: [{ id: idOrPrefix }, { prefix: idOrPrefix }] },
          data: { revokedAt: at },
        })
      ).count,
  };
}

function readsOfOtherDomains(db: Db | Tx) {
  return {
    version: (id: string) => db.modelVersion.findUnique({ where: { id }, include: WITH_EXCLUSION }),
    versionOrThrow: (id: string) => db.modelVersion.findUniqueOrThrow({ where: { id }, include: WITH_EXCLUSION }),
    versionNumber: (id: string) => db.modelVersion.findUnique({ where: { id }, select: { number: true } }),
    /** The columns its serving kind is read from (release-kind.ts kindOfVersionRow). */
    versionEvidence: (id: string) => db.modelVersion.findUnique({ where: { id }, select: { receipt: true, baselineReceipt: true } }),
    modelSummary: (id: string) => db.registeredModel.findUnique({ where: { id }, select: { id: true, name: true } }),
    modelName: (id: string) => db.registeredModel.findUnique({ where: { id }, select: { name: true } }),
    computer: (id: string) => db.target.findUnique({ where: { id }, select: { id: true, name: true } }),
    /** Computers in use (a deleted one keeps its row for its finished jobs). */
    computersInUse: () => db.target.findMany({ where: { deletedAt: null }, select: { id: true, name: true } }),
    computerProbe: (id: string) => db.target.findUnique({ where: { id }, select: { probe: true } }),
    /** The newest job whose opId starts with `prefix` (a restarted serving job's opId has a suffix). */
    newestJobWithOpIdPrefix: (prefix: string) => db.job.findFirst({ where: { opId: { startsWith: prefix } }, orderBy: { createdAt: "desc" } }),
    /** Its last move to `ready`: when it started serving (health's uptime). */
    lastReadyEvent: (deploymentId: string) =>
      db.lifecycleEvent.findFirst({ where: { lifecycle: "deployment", entityId: deploymentId, to: "ready" }, orderBy: { id: "desc" } }),
  };
}
