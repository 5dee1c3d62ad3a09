/**
 * `defineLifecycle` turns one allowed-transition table into everything its readers need:
 * the zod enum of its states, `isTerminal`, `canMove`, the active states, and the typed
 * data a state may carry (`payloads`: e.g. a failed deployment's pending restart), which
 * transition() stores beside the state and its event so no code reads it from the reason. The table is
 * checked twice: by the type (a terminal state's row must be empty, every other row must
 * name at least one other state) and when the module loads (unknown names, self moves,
 * states no row leads to), so a wrong table fails every test that imports it.
 */
import { z } from "zod";

/** One row per state; a terminal state's row is empty, any other names where it may go. */
export type TransitionTable<S extends string, T extends S> = {
  readonly [K in S]: K extends T ? readonly [] : readonly [Exclude<S, K>, ...Exclude<S, K>[]];
};

export interface LifecycleDefinition<S extends string, T extends S> {
  /** Names the lifecycle in refusals ("experiment", "dataset", …). */
  readonly name: string;
  readonly states: readonly [S, ...S[]];
  /** States a row may be created in; every other state must be reachable from one. */
  readonly initial: readonly [NoInfer<S>, ...NoInfer<S>[]];
  /** States that never change again (may be empty: a dataset can always be profiled again). */
  readonly terminal: readonly T[];
  readonly transitions: NoInfer<TransitionTable<S, T>>;
  /** The data a state carries, by state (zod); a state without one carries none. */
  readonly payloads?: { readonly [K in NoInfer<S>]?: z.ZodType };
}

export interface Lifecycle<S extends string, T extends S = S> extends LifecycleDefinition<S, T> {
  readonly schema: z.ZodEnum<{ [K in S]: K }>;
  /** The non-terminal states, in table order. */
  readonly active: readonly Exclude<S, T>[];
  isState(state: string): state is S;
  isTerminal(state: string): state is T;
  /** A known, non-terminal state (for jobs: may still hold a reservation). */
  isActive(state: string): state is Exclude<S, T>;
  /** Whether the table allows `from → to` (false for unknown names and for staying put). */
  canMove(from: string, to: string): boolean;
  /**
   * The data for a move to `state`, checked against its schema: null when none is given.
   * Throws when the state carries no data and some is given, or the data does not fit.
   */
  checkPayload(state: string, data: unknown): unknown;
}

export class LifecycleTableError extends Error {
  constructor(name: string, problem: string) {
    super(`lifecycle ${name}: ${problem}`);
    this.name = "LifecycleTableError";
  }
}

function check<S extends string, T extends S>(def: LifecycleDefinition<S, T>): void {
  const fail = (problem: string): never => {
    throw new LifecycleTableError(def.name, problem);
  };
  const states = new Set<string>(def.states);
  if (states.size !== def.states.length) fail("a state is listed twice");
  const rows = def.transitions as Partial<Record<string, readonly string[]>>;
  for (const key of Object.keys(rows)) if (!states.has(key)) fail(`row "${key}" is not a state`);
  for (const s of def.states) {
    const row = rows[s] ?? fail(`state "${s}" has no row`);
    for (const to of row) {
      if (!states.has(to)) fail(`"${s}" → "${to}": "${to}" is not a state`);
      if (to === s) fail(`"${s}" → "${s}": a state does not move to itself`);
    }
    const terminal = (def.terminal as readonly string[]).includes(s);
    if (terminal && row.length > 0) fail(`terminal state "${s}" has moves`);
    if (!terminal && row.length === 0) fail(`state "${s}" has no moves but is not terminal`);
  }
  for (const t of def.terminal) if (!states.has(t)) fail(`terminal "${t}" is not a state`);
  for (const k of Object.keys(def.payloads ?? {})) if (!states.has(k)) fail(`payload of "${k}": not a state`);
  for (const i of def.initial) if (!states.has(i)) fail(`initial "${i}" is not a state`);
  const seen = new Set<string>(def.initial);
  const queue: string[] = [...def.initial];
  for (let from = queue.shift(); from !== undefined; from = queue.shift()) {
    for (const to of rows[from] ?? []) {
      if (seen.has(to)) continue;
      seen.add(to);
      queue.push(to);
    }
  }
  const unreachable = def.states.filter((s) => !seen.has(s));
  if (unreachable.length) fail(`no row leads to ${unreachable.join(", ")}`);
}

export function defineLifecycle<const S extends string, const T extends S = never>(def: LifecycleDefinition<S, T>): Lifecycle<S, T> {
  check(def);
  const states: readonly string[] = def.states;
  const terminal: readonly string[] = def.terminal;
  const rows = def.transitions as Partial<Record<string, readonly string[]>>;
  const isState = (s: string): s is S => states.includes(s);
  const isTerminal = (s: string): s is T => terminal.includes(s);
  const isActive = (s: string): s is Exclude<S, T> => isState(s) && !isTerminal(s);
  return {
    ...def,
    schema: z.enum(def.states as unknown as [S, ...S[]]) as unknown as z.ZodEnum<{ [K in S]: K }>,
    active: def.states.filter(isActive),
    isState,
    isTerminal,
    isActive,
    canMove: (from, to) => isState(from) && (rows[from] ?? []).includes(to),
    checkPayload: (state, data) => {
      if (data === undefined || data === null) return null;
      const schema = (def.payloads as Partial<Record<string, z.ZodType>> | undefined)?.[state];
      if (!schema) throw new LifecycleTableError(def.name, `state "${state}" carries no data`);
      return schema.parse(data);
    },
  };
}

/** The state type of a lifecycle. */
export type StateOf<L> = L extends { readonly states: readonly (infer S extends string)[] } ? S : never;
