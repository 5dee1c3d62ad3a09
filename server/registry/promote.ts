/**
 * Promote: point an alias (default "selected") at a version, if the gate allows it or the
 * caller acknowledged what it found, and only from the revision the caller decided on.
 * Every refusal is a CONFLICT whose details carry the refreshed decision, so a stale page
 * can show the comparison again instead of overwriting anything.
 */
import type { Db } from "@/server/db/client";
import { conflict } from "@/server/errors";
import { publish } from "@/server/events/bus";
import { gate, type GateDecision } from "./gate";
import { moveAlias } from "./alias-move";
import { checkVersionExport } from "./export-check";
import { registrySettings } from "./registry-settings";
import { ZPromoteInput, type Actor, type TPromoteInput } from "./registry.schema";
import { eventViews, findModel, findVersion, modelView, versionView, type EventView, type ModelView, type VersionView } from "./registry-views";
import { registryRepository, type RegistryClient } from "./registry.repository";

export interface MoveResult {
  model: ModelView;
  /** The event written; null when the version already held the alias (nothing moved). */
  event: EventView | null;
  decision: GateDecision | { verdict: "rollback"; reason: string };
}

/** The version an alias points at now, or null. */
export async function aliasTarget(tx: RegistryClient, modelId: string, alias: string): Promise<VersionView | null> {
  const repo = registryRepository(tx);
  const a = await repo.aliasByName(modelId, alias);
  if (!a) return null;
  const row = await repo.versionById(a.versionId);
  return row ? versionView(row) : null;
}

/** What promoting `version` would meet now (the refreshed comparison a page shows). */
export async function promotionPreview(db: RegistryClient, modelId: string, number: number, alias: string, minUsefulGain: number) {
  const model = await findModel(db, modelId);
  const candidate = await findVersion(db, modelId, number);
  const current = await aliasTarget(db, modelId, alias);
  return { model: await modelView(db, model), candidate, current, decision: gate(candidate, current, minUsefulGain) };
}

export async function promote(db: Db, raw: TPromoteInput, actor: Actor): Promise<MoveResult> {
  const input = ZPromoteInput.parse(raw);
  const { minUsefulGain } = await registrySettings(db);
  await checkVersionExport(db, await findVersion(db, input.modelId, input.version));
  const outcome = await db.$transaction(async (tx) => {
    const seen = await promotionPreview(tx, input.modelId, input.version, input.alias, minUsefulGain);
    const { decision } = seen;
    const refreshed = { model: seen.model, decision };
    if (seen.model.revision !== input.expectedRevision) {
      throw conflict(`The model is at revision ${seen.model.revision}, not ${input.expectedRevision}: someone moved it since you looked. Here is the comparison again.`, {
        code: "stale_revision",
        ...refreshed,
      });
    }
    if (decision.verdict === "already_selected") return { decision, eventId: null };
    if (decision.verdict === "export_missing" || decision.verdict === "needs_evaluation") {
      throw conflict(decision.reason, { code: decision.verdict, ...refreshed });
    }
    if (decision.verdict === "needs_acknowledgement" && !input.acceptRegression) {
      throw conflict(`${decision.reason} Promote it anyway only with an acknowledgement (acceptRegression) and a reason.`, {
        code: "needs_acknowledgement",
        ...refreshed,
      });
    }
    const eventId = await moveAlias(tx, {
      modelId: input.modelId,
      alias: input.alias,
      kind: "promote",
      fromVersionId: seen.current?.id ?? null,
      toVersionId: seen.candidate.id,
      expectedRevision: input.expectedRevision,
      actor,
      reason: input.reason,
      evidence: evidenceOf(decision, seen.candidate, seen.current),
      acknowledgedRegression: decision.verdict === "needs_acknowledgement",
    });
    return { decision, eventId };
  });
  return moveResult(db, input.modelId, outcome.eventId, outcome.decision);
}

/** What an event keeps of the evidence: the decision and the exact hashes it compared. */
export function evidenceOf(decision: MoveResult["decision"], candidate: VersionView, current: VersionView | null) {
  const hashes = (v: VersionView) => ({
    version: v.number,
    exportSha256: v.exportSha256,
    modelSha256: v.modelSha256,
    evaluationContractHash: v.evaluationContractHash,
    primaryMetric: v.primaryMetric,
    primaryValue: v.primaryValue,
  });
  return { decision, candidate: hashes(candidate), previous: current ? hashes(current) : null };
}

export async function moveResult(db: Db, modelId: string, eventId: number | null, decision: MoveResult["decision"]): Promise<MoveResult> {
  const model = await modelView(db, await findModel(db, modelId));
  const row = eventId === null ? null : await registryRepository(db).aliasEventById(eventId);
  // A move committed: every page showing the model (another tab, the phone) follows it.
  if (row) publish({ type: "model.changed", modelId, projectId: model.projectId });
  return { model, event: row ? (await eventViews(db, [row]))[0]! : null, decision };
}
