/**
 * A search's and a trial's state move through contracts/lifecycles (searchLifecycle,
 * trialLifecycle) with the one transition(), events in LifecycleEvent under "search" and
 * "trial". A search's move also moves its revision, and applies only at the revision the
 * caller read (an action decided on an older view changes nothing). Every committed move
 * is published (`search.changed`: a trial shows on its search's page).
 */
import { searchLifecycle, trialLifecycle, type SearchState, type TrialState } from "@/contracts/lifecycles";
import type { Db } from "@/server/db/client";
import { publish } from "@/server/events/bus";
import { recordIn } from "@/server/lifecycle/events";
import { transition, type LifecycleStore } from "@/server/lifecycle/transition";

/** A trial in these states holds its booking: the search counts it as running beside others. */
export const ACTIVE_TRIAL_STATES: ReadonlySet<string> = new Set(["reserved", "running", "unknown"]);

export interface SearchFields {
  wallUsedSeconds?: number;
  runningSince?: Date | null;
  outcome?: string;
  endedAt?: Date;
}

export interface TrialFields {
  experimentId?: string;
  reservedSeconds?: number;
  reservedAt?: Date;
  usedSeconds?: number;
  validationValue?: number | null;
  endedAt?: Date;
}

/** The revision the move applies at, and the row's other fields it sets. */
interface SearchPatch {
  revision: number;
  fields: SearchFields;
  /** Undefined: the row keeps its reason (the event still records the move's). */
  reason: string | null | undefined;
}

interface TrialPatch {
  fields: TrialFields;
  reason: string | null | undefined;
}

const searchStore: LifecycleStore<SearchState, SearchPatch> = {
  lifecycle: searchLifecycle,
  read: async (tx, id) => (await tx.search.findUnique({ where: { id }, select: { status: true } }))?.status ?? null,
  write: async (tx, id, move, p) =>
    (
      await tx.search.updateMany({
        where: { id, status: move.from, revision: p.revision },
        data: { ...p.fields, ...(p.reason === undefined ? {} : { reason: p.reason }), status: move.to, revision: { increment: 1 } },
      })
    ).count,
  record: recordIn(searchLifecycle.name),
};

const trialStore: LifecycleStore<TrialState, TrialPatch> = {
  lifecycle: trialLifecycle,
  read: async (tx, id) => (await tx.searchTrial.findUnique({ where: { id }, select: { status: true } }))?.status ?? null,
  write: async (tx, id, move, p) =>
    (await tx.searchTrial.updateMany({ where: { id, status: move.from }, data: { ...p.fields, ...(p.reason === undefined ? {} : { reason: p.reason }), status: move.to } })).count,
  record: recordIn(trialLifecycle.name),
};

/**
 * One search move, only from the status and revision it was read in (a concurrent move
 * wins: false, and the caller reads again). A move its table forbids throws.
 */
export async function moveSearch(
  db: Db,
  s: { id: string; projectId: string; status: string; revision: number },
  to: SearchState,
  fields: SearchFields & { reason?: string | null },
): Promise<boolean> {
  const { reason, ...rest } = fields;
  const r = await transition(db, searchStore, s.id, to, { from: s.status, reason: reason ?? null, patch: { revision: s.revision, fields: rest, reason } });
  if (r.changed) publish({ type: "search.changed", searchId: s.id, projectId: s.projectId });
  return r.changed;
}

/** One trial move, only from the status it was read in. */
export async function moveTrial(
  db: Db,
  t: { id: string; status: string },
  search: { id: string; projectId: string },
  to: TrialState,
  fields: TrialFields & { reason?: string | null },
): Promise<boolean> {
  const { reason, ...rest } = fields;
  const r = await transition(db, trialStore, t.id, to, { from: t.status, reason: reason ?? null, patch: { fields: rest, reason } });
  if (r.changed) publish({ type: "search.changed", searchId: search.id, projectId: search.projectId });
  return r.changed;
}
