/**
 * A deployment's state moves through contracts/lifecycles deploymentLifecycle with the one
 * transition() (events in LifecycleEvent under "deployment"). Every move also moves the
 * revision, so an action decided on an older view is refused (stale_revision). A state's
 * data (a pending restart, a switch's plan, why it loads) is stored typed beside it
 * (`stateData`) and in its event: code reads that, never the reason's words. Every
 * committed move is published (`deployment.changed`), so pages follow without polling.
 */
import { deploymentLifecycle, ZDeploymentFailed, ZDeploymentLoading, ZDeploymentSwitching, type DeploymentState, type DeploymentStateData } from "@/contracts/lifecycles";
import type { Db } from "@/server/db/client";
import { parseStoredJson } from "@/server/db/stored-json";
import { publish } from "@/server/events/bus";
import { recordIn } from "@/server/lifecycle/events";
import { transition, transitionIn, type LifecycleStore, type TransitionResult, type Tx } from "@/server/lifecycle/transition";
import { deploymentsRepository } from "./deployments.repository";

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
        data: { ...patch, state: move.to, reason: move.reason, stateData: move.data === null ? null : JSON.stringify(move.data), revision: { increment: 1 } },
      })
    ).count,
  record: recordIn(deploymentLifecycle.name),
};

type DataOf<T extends DeploymentState> = T extends keyof DeploymentStateData ? DeploymentStateData[T] : never;

export interface DeploymentMove<T extends DeploymentState> {
  /** Words for people. */
  reason: string | null;
  data?: DataOf<T>;
  patch?: DeploymentPatch;
  /**
   * Only from this state (an observer acting on what it saw): a row that moved meanwhile is
   * left alone and `changed` is false, instead of an error.
   */
  onlyFrom?: DeploymentState;
}

const options = <T extends DeploymentState>(m: DeploymentMove<T>) => ({
  reason: m.reason,
  data: m.data,
  patch: m.patch,
  ...(m.onlyFrom ? { from: m.onlyFrom, illegal: "ignore" as const } : {}),
});

/** Tells the pages (the live event stream) that a deployment moved; called after the move committed. */
export async function deploymentChanged(db: Db, id: string): Promise<void> {
  const d = await deploymentsRepository(db).projectAndState(id);
  if (d) publish({ type: "deployment.changed", deploymentId: id, projectId: d.projectId, state: d.state });
}

export async function moveDeployment<T extends DeploymentState>(db: Db, id: string, to: T, move: DeploymentMove<T>): Promise<TransitionResult<DeploymentState>> {
  const result = await transition(db, deploymentStore, id, to, options(move));
  if (result.changed) await deploymentChanged(db, id);
  return result;
}

/** Inside the caller's transaction: the caller calls deploymentChanged once it committed. */
export function moveDeploymentIn<T extends DeploymentState>(tx: Tx, id: string, to: T, move: DeploymentMove<T>): Promise<TransitionResult<DeploymentState>> {
  return transitionIn(tx, deploymentStore, id, to, options(move));
}

const DATA_SCHEMAS = { loading: ZDeploymentLoading, switching: ZDeploymentSwitching, failed: ZDeploymentFailed } as const;

/** A deployment row's state data, when it is in `state` and has some (rows from before it was kept have none). */
export function stateDataOf<T extends keyof DeploymentStateData>(row: { state: string; stateData: string | null }, state: T): DeploymentStateData[T] | null {
  if (row.state !== state) return null;
  return parseStoredJson(DATA_SCHEMAS[state], row.stateData) as DeploymentStateData[T] | null;
}

/** An event's data, for a move to `state`. */
export function eventDataOf<T extends keyof DeploymentStateData>(event: { to: string; data: string | null }, state: T): DeploymentStateData[T] | null {
  return stateDataOf({ state: event.to, stateData: event.data }, state);
}
