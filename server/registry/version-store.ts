/**
 * A model version's status moves through contracts/lifecycles modelVersionLifecycle with
 * the one transition() (its events in LifecycleEvent under "model version"): whether its
 * export is in managed storage. Everything else about a version is immutable.
 */
import { modelVersionLifecycle, type ModelVersionStatus } from "@/contracts/lifecycles";
import type { Db } from "@/server/db/client";
import { recordIn } from "@/server/lifecycle/events";
import { transition, transitionIn, type LifecycleStore, type Tx } from "@/server/lifecycle/transition";

export const versionStore: LifecycleStore<ModelVersionStatus, Record<string, never>> = {
  lifecycle: modelVersionLifecycle,
  read: async (tx, id) => (await tx.modelVersion.findUnique({ where: { id }, select: { status: true } }))?.status ?? null,
  write: async (tx, id, move) => (await tx.modelVersion.updateMany({ where: { id, status: move.from }, data: { status: move.to } })).count,
  record: recordIn(modelVersionLifecycle.name),
};

/** Records what a check of the version's export found (a repeat changes nothing). */
export function markExport(db: Db, versionId: string, present: boolean, reason: string | null) {
  return transition(db, versionStore, versionId, present ? "registered" : "export_missing", { reason, illegal: "ignore" });
}

export function markExportIn(tx: Tx, versionId: string, present: boolean, reason: string | null) {
  return transitionIn(tx, versionStore, versionId, present ? "registered" : "export_missing", { reason });
}
