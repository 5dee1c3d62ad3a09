/**
 * Deployments (server/deployments; docs/deployments.md):
 * - list {projectId} → DeploymentView[]; show {deploymentId} → { deployment, releases, keys, stats }
 * - create {modelId, what: {version} | {alias}, name?, mode?, computer?} → DeploymentView;
 *   refusals: CONFLICT export_missing | alias_unset | name_taken, BAD_INPUT unknown_computer
 * - switch {deploymentId, expectedRevision, version, why}, rollback {deploymentId,
 *   expectedRevision, why, toRelease?}, stop / resume {deploymentId, expectedRevision}
 *   → DeploymentView; CONFLICT stale_revision with details.deployment refreshed
 * - keys: createKey {deploymentId, name} → { id, key } (the key only this once),
 *   listKeys {deploymentId} → KeyView[], revokeKey {deploymentId, keyId}; consoleKey
 *   {deploymentId} → { key, expiresAt } (the page's consoles: a key of an hour)
 * Public routes: /api/deployments/<id>/predict and /health (a key of that deployment works there).
 */
import { procedure, router } from "../trpc";
import { getDb } from "@/server/db/client";
import { latencyOf } from "@/server/deployments/deployment-latency";
import { deploymentsService } from "@/server/deployments/deployments.service";
import {
  ZCreateDeploymentInput,
  ZCreateKeyInput,
  ZDeploymentIdInput,
  ZListDeploymentsInput,
  ZRevokeKeyInput,
  ZRollbackInput,
  ZStopResumeInput,
  ZSwitchInput,
} from "@/server/deployments/deployments.schema";

export const deploymentsRouter = router({
  list: procedure.input(ZListDeploymentsInput).query(({ input }) => deploymentsService().list(input.projectId)),
  /** deploymentId → requests and p50/p95 of its current release (deployment-latency.ts). */
  latency: procedure.input(ZListDeploymentsInput).query(({ input }) => latencyOf(getDb(), input.projectId)),
  show: procedure.input(ZDeploymentIdInput).query(({ input }) => deploymentsService().show(input.deploymentId)),
  create: procedure.input(ZCreateDeploymentInput).mutation(({ input, ctx }) => deploymentsService().create(input, ctx.principal)),
  switch: procedure.input(ZSwitchInput).mutation(({ input, ctx }) => deploymentsService().switch(input, ctx.principal)),
  rollback: procedure.input(ZRollbackInput).mutation(({ input, ctx }) => deploymentsService().rollback(input, ctx.principal)),
  stop: procedure.input(ZStopResumeInput).mutation(({ input }) => deploymentsService().stop(input)),
  resume: procedure.input(ZStopResumeInput).mutation(({ input }) => deploymentsService().resume(input)),
  createKey: procedure.input(ZCreateKeyInput).mutation(({ input }) => deploymentsService().createKey(input.deploymentId, input.name)),
  consoleKey: procedure.input(ZDeploymentIdInput).mutation(({ input }) => deploymentsService().consoleKey(input.deploymentId)),
  listKeys: procedure.input(ZDeploymentIdInput).query(({ input }) => deploymentsService().listKeys(input.deploymentId)),
  revokeKey: procedure.input(ZRevokeKeyInput).mutation(({ input }) => deploymentsService().revokeKey(input.deploymentId, input.keyId)),
});
