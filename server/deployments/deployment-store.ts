/**
 * A deployment's state moves through contracts/lifecycles deploymentLifecycle with the one
 * transition() (events in LifecycleEvent under "deployment"). Every move also moves the
 * revision, so an action decided on an older view is refused (stale_revision).
 */
import { deploymentLifecycle, type DeploymentState } from "@/contracts/lifecycles";
import type { Db } from "@/server/db/client";
import { recordIn } from "@/server/lifecycle/events";
import { transition, transitionIn, type LifecycleStore, type Tx } from "@/server/lifecycle/transition";

export interface DeploymentPatch {
  currentReleaseId?: string;
}

export const deploymentStore: LifecycleStore<DeploymentState, DeploymentPatch> = {
  lifecycle: deploymentLifecycle,
  read: async (tx, id) => (await tx.deployment.findUnique({ where: { id }, select: { state: true } }))?.state ?? null,
  write: async (tx, id, move, patch) =>
    (
      await tx.deployment.updateMany({
        where: { id, state: move.from },
        data: { ...patch, state: move.to, reason: move.reason, revision: { increment: 1 } },
      })
    ).count,
  record: recordIn(deploymentLifecycle.name),
};

export function moveDeployment(db: Db, id: string, to: DeploymentState, reason: string | null, patch: DeploymentPatch = {}) {
  return transition(db, deploymentStore, id, to, { reason, patch });
}

export function moveDeploymentIn(tx: Tx, id: string, to: DeploymentState, reason: string | null, patch: DeploymentPatch = {}) {
  return transitionIn(tx, deploymentStore, id, to, { reason, patch });
}
