/**
 * Roll back: the "selected" alias returns to the version selected before the current one,
 * or to any version that was selected earlier (from the timeline). An event like a
 * promotion; no gate, since the version already served, but its export must be present.
 */
import type { Db } from "@/server/db/client";
import { badInput, conflict } from "@/server/errors";
import { comparability } from "./gate";
import { moveAlias } from "./alias-move";
import { checkVersionExport } from "./export-check";
import { SELECTED, type Actor, type TRollbackInput } from "./registry.schema";
import { findModel, findVersion, modelView, versionView } from "./registry-views";
import { registryRepository } from "./registry.repository";
import { aliasTarget, evidenceOf, moveResult, type MoveResult } from "./promote";

const stale = (revision: number, refreshed?: object) =>
  conflict(`The model is at revision ${revision}: someone moved it since you looked.`, { code: "stale_revision", ...refreshed });

export async function rollback(db: Db, input: TRollbackInput, actor: Actor): Promise<MoveResult> {
  const model = await findModel(db, input.modelId);
  // A click on a stale page hears that first, before whatever the move has become.
  if (input.expectedRevision !== undefined && input.expectedRevision !== model.revision) throw stale(model.revision, { model: await modelView(db, model) });
  const target = async () => {
    const current = await aliasTarget(db, model.id, SELECTED);
    if (!current) throw badInput(`"${model.name}" has no selected version, so there is nothing to roll back.`, { code: "no_earlier_selection" });
    const events = await registryRepository(db).aliasEventsNewestFirst(model.id, SELECTED);
    if (input.to === undefined) {
      const previous = events[0]?.fromVersionId;
      if (!previous) throw badInput(`"${model.name}" has had no selection before version ${current.number}; there is nothing to roll back to.`, { code: "no_earlier_selection" });
      return { current, to: versionView(await registryRepository(db).versionByIdOrThrow(previous)) };
    }
    const to = await findVersion(db, model.id, input.to);
    if (to.id === current.id) throw badInput(`Version ${to.number} is already selected.`, { code: "already_selected" });
    if (!events.some((e) => e.toVersionId === to.id)) {
      throw badInput(`Version ${to.number} of "${model.name}" was never selected; promote it instead of rolling back to it.`, { code: "never_selected" });
    }
    return { current, to };
  };
  const { current, to } = await target();
  const checked = await checkVersionExport(db, to);
  if (checked.status !== "registered") throw conflict(`Version ${to.number}'s export is missing from managed storage; it cannot be selected.`, { code: "export_missing" });
  const comp = comparability(to.evidence, current.evidence);
  const decision = { verdict: "rollback" as const, reason: `Rolled back from version ${current.number} to version ${to.number}. ${comp.reason}` };
  const eventId = await db.$transaction(async (tx) => {
    const now = await registryRepository(tx).modelByIdOrThrow(model.id);
    const expected = input.expectedRevision ?? now.revision;
    const still = await aliasTarget(tx, model.id, SELECTED);
    // Without an expected revision, the selection it decided on must still hold.
    if (expected !== now.revision || still?.id !== current.id) throw stale(now.revision);
    return moveAlias(tx, {
      modelId: model.id,
      alias: SELECTED,
      kind: "rollback",
      fromVersionId: current.id,
      toVersionId: to.id,
      expectedRevision: expected,
      actor,
      reason: input.reason,
      evidence: { ...evidenceOf(decision, to, current), comparability: comp },
      acknowledgedRegression: false,
    });
  });
  return moveResult(db, model.id, eventId, decision);
}
