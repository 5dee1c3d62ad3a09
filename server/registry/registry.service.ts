/** The model registry's operations, as the router and the route handlers call them. */
import { getDb, type Db } from "@/server/db/client";
import type { Principal } from "@/server/auth/principal";
import { actorOf } from "./actor";
import { compareVersions } from "./compare";
import { promote, promotionPreview } from "./promote";
import { register } from "./register";
import { registrySettings, registrySettingsView, updateRegistrySettings, type TUpdateRegistrySettingsInput } from "./registry-settings";
import { history, findModel, modelView, versionsOf, type ModelView } from "./registry-views";
import { registryRepository } from "./registry.repository";
import { removeVersion, removeVersions } from "./remove-version";
import { retentionPreview } from "./retention";
import { rollback } from "./rollback";
import { SELECTED, type TPromoteInput, type TRegisterInput, type TRemoveVersionInput, type TRemoveVersionsInput, type TRollbackInput } from "./registry.schema";

export function registryService(db: Db = getDb()) {
  return {
    async list(projectId: string): Promise<ModelView[]> {
      const models = await registryRepository(db).modelsByName(projectId);
      return Promise.all(models.map((m) => modelView(db, m)));
    },
    async show(modelId: string) {
      const model = await modelView(db, await findModel(db, modelId));
      return { model, versions: await versionsOf(db, modelId), history: await history(db, modelId) };
    },
    register: (input: TRegisterInput) => register(db, input),
    promote: (input: TPromoteInput, principal: Principal) => promote(db, input, actorOf(principal)),
    rollback: (input: TRollbackInput, principal: Principal) => rollback(db, input, actorOf(principal)),
    history: (modelId: string, limit?: number) => history(db, modelId, limit),
    compare: (modelId: string, a: number, b: number) => compareVersions(db, modelId, a, b),
    async promotionPreview(modelId: string, version: number) {
      return promotionPreview(db, modelId, version, SELECTED, (await registrySettings(db)).minUsefulGain);
    },
    retentionPreview: (projectId: string) => retentionPreview(db, projectId),
    removeVersion: (input: TRemoveVersionInput) => removeVersion(db, input),
    removeVersions: (input: TRemoveVersionsInput) => removeVersions(db, input),
    settings: () => registrySettingsView(db),
    updateSettings: (input: TUpdateRegistrySettingsInput) => updateRegistrySettings(db, input),
  };
}
