/**
 * The one way a lifecycle row changes state: in one transaction, read (or take) the state
 * it is in, refuse a move its table does not allow, write the new state only where the
 * row is still in the old one (two racing writers: the loser changes nothing), and append
 * its event row. Each entity says how to read, write and record itself (a `LifecycleStore`);
 * the rules live here once. Publishing on the bus is the caller's, after the commit.
 */
import type { Lifecycle } from "@/contracts/lifecycles";
import type { Db } from "@/server/db/client";
import { notFound } from "@/server/errors";
import { IllegalTransitionError } from "./lifecycle-error";

/** The client inside an interactive transaction. */
export type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

export interface LifecycleEventInput<S extends string> {
  from: S;
  to: S;
  /** Words for people only: no code reads it. */
  reason: string | null;
  /** The typed data of the state moved to (the lifecycle's `payloads`), or null. */
  data: unknown;
  at: Date;
}

/** What transition() needs of a lifecycle (any terminal set). */
export type LifecycleRules<S extends string> = Pick<Lifecycle<S>, "name" | "states" | "canMove" | "checkPayload"> & { isTerminal(state: string): boolean };

export interface LifecycleStore<S extends string, P> {
  readonly lifecycle: LifecycleRules<S>;
  /** The row's current state, or null when there is no such row. */
  read(tx: Tx, id: string): Promise<string | null>;
  /** Sets the state (with `patch`) where the row is still `from`; returns how many rows changed. */
  write(tx: Tx, id: string, move: LifecycleEventInput<S>, patch: P): Promise<number>;
  /** Appends the move to the entity's event table. */
  record(tx: Tx, id: string, move: LifecycleEventInput<S>): Promise<void>;
}

export interface TransitionOptions<P> {
  reason?: string | null;
  /** The data the state moved to carries (checked against the lifecycle's payload schema). */
  data?: unknown;
  patch?: P;
  /** The state the caller saw; when given, the move applies only from it (no re-read). */
  from?: string;
  /**
   * "refuse" (default) throws IllegalTransitionError. "ignore" answers `changed: false`:
   * for observers that report whatever they saw, where a late or repeated observation
   * is expected and must change nothing (the job reconcile loop).
   */
  illegal?: "refuse" | "ignore";
}

export type TransitionResult<S extends string> = { changed: boolean; from: string; to: S };

/** `transition` inside a transaction the caller already holds (e.g. with the row's other writes). */
export async function transitionIn<S extends string, P>(
  tx: Tx,
  store: LifecycleStore<S, P>,
  id: string,
  to: S,
  opts: TransitionOptions<P> = {},
): Promise<TransitionResult<S>> {
  const current = opts.from ?? (await store.read(tx, id));
  if (current === null) throw notFound(`The ${store.lifecycle.name} ${id} does not exist.`);
  // Asking for the state a row is already in is a repeat, not a move.
  if (current === to) return { changed: false, from: current, to };
  if (!store.lifecycle.canMove(current, to)) {
    if (opts.illegal === "ignore") return { changed: false, from: current, to };
    throw new IllegalTransitionError(store.lifecycle.name, id, current, to);
  }
  const move: LifecycleEventInput<S> = { from: current as S, to, reason: opts.reason ?? null, data: store.lifecycle.checkPayload(to, opts.data), at: new Date() };
  const count = await store.write(tx, id, move, opts.patch ?? ({} as P));
  if (count === 0) return { changed: false, from: current, to };
  await store.record(tx, id, move);
  return { changed: true, from: current, to };
}

export function transition<S extends string, P>(
  db: Db,
  store: LifecycleStore<S, P>,
  id: string,
  to: S,
  opts: TransitionOptions<P> = {},
): Promise<TransitionResult<S>> {
  return db.$transaction((tx) => transitionIn(tx, store, id, to, opts));
}
