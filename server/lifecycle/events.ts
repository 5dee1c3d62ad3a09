/**
 * The LifecycleEvent table (prisma/schema.prisma says why it is one table): how a store
 * records a move, and how a row's history is read and removed with the row.
 */
import type { Db } from "@/server/db/client";
import type { LifecycleEventInput, Tx } from "./transition";

/** The `record` of a LifecycleStore whose events go to LifecycleEvent under `lifecycle`. */
export function recordIn(lifecycle: string) {
  return async (tx: Tx, entityId: string, m: LifecycleEventInput<string>): Promise<void> => {
    await tx.lifecycleEvent.create({ data: { lifecycle, entityId, from: m.from, to: m.to, reason: m.reason, data: m.data === null ? null : JSON.stringify(m.data), at: m.at } });
  };
}

export function lifecycleEvents(db: Db | Tx) {
  return {
    of: (lifecycle: string, entityId: string) => db.lifecycleEvent.findMany({ where: { lifecycle, entityId }, orderBy: { id: "asc" } }),
    removeFor: (lifecycle: string, entityIds: string[]) => db.lifecycleEvent.deleteMany({ where: { lifecycle, entityId: { in: entityIds } } }),
  };
}
