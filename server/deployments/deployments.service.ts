/** The deployments operations, as the router, the CLI and the route handlers call them. */
import type { Principal } from "@/server/auth/principal";
import { getDb, type Db } from "@/server/db/client";
import { actorOf } from "@/server/registry/actor";
import { createDeployment } from "./create-deployment";
import { rollbackTo, resume, stop, switchTo } from "./deployment-actions";
import { createConsoleKey, createKey, listKeys, revokeKey } from "./deployment-keys";
import { statsOf } from "./deployment-stats";
import { deploymentView, findDeployment, releasesOf } from "./deployment-views";
import type { DeploymentView, TCreateDeploymentInput, TRollbackInput, TStopResumeInput, TSwitchInput } from "./deployments.schema";
import { deploymentsRepository } from "./deployments.repository";
import { generate, openStream, type GenerateProtocol } from "./serve-generate";
import { health, predict } from "./serve-request";
import { startUp } from "./serving-runner";
import { deploymentInterface } from "./public-interface";

export function deploymentsService(db: Db = getDb()) {
  const view = async (id: string) => deploymentView(db, await findDeployment(db, id));
  return {
    async list(projectId: string): Promise<DeploymentView[]> {
      const rows = await deploymentsRepository(db).inProject(projectId);
      return Promise.all(rows.map((r) => deploymentView(db, r)));
    },
    async show(id: string) {
      return { deployment: await view(id), releases: await releasesOf(db, id), keys: await listKeys(db, id), stats: await statsOf(db, id) };
    },
    async create(input: TCreateDeploymentInput, principal: Principal): Promise<DeploymentView> {
      const id = await createDeployment(db, input, actorOf(principal));
      await startUp(db, id);
      return view(id);
    },
    async switch(input: TSwitchInput, principal: Principal) {
      await switchTo(db, input, actorOf(principal));
      return view(input.deploymentId);
    },
    async rollback(input: TRollbackInput, principal: Principal) {
      await rollbackTo(db, input, actorOf(principal));
      return view(input.deploymentId);
    },
    async stop(input: TStopResumeInput) {
      await stop(db, input);
      return view(input.deploymentId);
    },
    async resume(input: TStopResumeInput) {
      await resume(db, input);
      await startUp(db, input.deploymentId);
      return view(input.deploymentId);
    },
    createKey: (deploymentId: string, name: string) => createKey(db, deploymentId, name),
    consoleKey: (deploymentId: string) => createConsoleKey(db, deploymentId),
    listKeys: (deploymentId: string) => listKeys(db, deploymentId),
    revokeKey: (deploymentId: string, keyId: string) => revokeKey(db, deploymentId, keyId),
    health: (id: string) => health(db, id),
    /** What its public routes take now (its own OpenAPI document). */
    publicInterface: (id: string) => deploymentInterface(db, id),
    predict: (id: string, body: unknown) => predict(db, id, body),
    /** `protocol`: another protocol's body and stream format on the same path (server/protocols/openai). */
    generate: (id: string, body: unknown, signal?: AbortSignal, protocol?: GenerateProtocol) => generate(db, id, body, signal, protocol),
    stream: (id: string, body: unknown, signal: AbortSignal, protocol?: GenerateProtocol) => openStream(db, id, body, signal, protocol),
  };
}
