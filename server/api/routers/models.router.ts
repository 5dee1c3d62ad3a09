/**
 * The model registry (server/registry; docs/registry.md). Shapes for the Models view:
 * - list {projectId} → ModelView[] (selected version with its score and selectedAt, aliases, revision)
 * - show {modelId} → { model, versions: VersionView[] newest first, history: EventView[] newest first }
 * - register {experimentId, modelId | newModelName} → { model, version, created, exportNote }
 * - promotionPreview {modelId, version} → { model, candidate, current, decision } (what Promote would meet)
 * - promote {modelId, version, reason, acceptRegression?, expectedRevision, alias?} → { model, event, decision }
 *   refusals are CONFLICT with data.details.code: stale_revision | needs_acknowledgement |
 *   needs_evaluation | export_missing, and details.{model, decision} refreshed
 * - rollback {modelId, to?, reason, expectedRevision?} → { model, event, decision }
 * - history {modelId, limit?} → EventView[]; compare {modelId, a, b} → VersionComparison
 * - retentionPreview {projectId} → what could be removed (aliased versions never)
 * - removeVersion {modelId, version, reason} → VersionView (status "removed"); CONFLICT
 *   version_in_use while an alias points at it
 * - removeVersions {projectId, versionIds, reason} → VersionView[]: the retention sheet's
 *   choice, all or none (retentionPreview.toFitBudget names the oldest that fit the budget)
 * - settings → { values: {exportBytesPerProject, minUsefulGain}, revision, defaults };
 *   updateSettings {values, revision} → the same; CONFLICT stale_revision
 * Download: GET /api/models/<modelId>/versions/<number>/export (X-Checksum-SHA256).
 */
import { procedure, router } from "../trpc";
import { registryService } from "@/server/registry/registry.service";
import {
  ZCompareInput,
  ZHistoryInput,
  ZListModelsInput,
  ZModelIdInput,
  ZPromoteInput,
  ZRegisterInput,
  ZRemoveVersionInput,
  ZRemoveVersionsInput,
  ZRetentionInput,
  ZRollbackInput,
} from "@/server/registry/registry.schema";
import { ZUpdateRegistrySettingsInput } from "@/server/registry/registry-settings";
import { z } from "zod";

const ZPreviewInput = z.strictObject({ modelId: ZModelIdInput.shape.modelId, version: ZPromoteInput.shape.version });

export const modelsRouter = router({
  list: procedure.input(ZListModelsInput).query(({ input }) => registryService().list(input.projectId)),
  show: procedure.input(ZModelIdInput).query(({ input }) => registryService().show(input.modelId)),
  register: procedure.input(ZRegisterInput).mutation(({ input }) => registryService().register(input)),
  promotionPreview: procedure.input(ZPreviewInput).query(({ input }) => registryService().promotionPreview(input.modelId, input.version)),
  promote: procedure.input(ZPromoteInput).mutation(({ input, ctx }) => registryService().promote(input, ctx.principal)),
  rollback: procedure.input(ZRollbackInput).mutation(({ input, ctx }) => registryService().rollback(input, ctx.principal)),
  history: procedure.input(ZHistoryInput).query(({ input }) => registryService().history(input.modelId, input.limit)),
  compare: procedure.input(ZCompareInput).query(({ input }) => registryService().compare(input.modelId, input.a, input.b)),
  retentionPreview: procedure.input(ZRetentionInput).query(({ input }) => registryService().retentionPreview(input.projectId)),
  removeVersion: procedure.input(ZRemoveVersionInput).mutation(({ input }) => registryService().removeVersion(input)),
  removeVersions: procedure.input(ZRemoveVersionsInput).mutation(({ input }) => registryService().removeVersions(input)),
  settings: procedure.query(() => registryService().settings()),
  updateSettings: procedure.input(ZUpdateRegistrySettingsInput).mutation(({ input }) => registryService().updateSettings(input)),
});
