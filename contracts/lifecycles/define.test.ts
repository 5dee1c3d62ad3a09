import { describe, expect, it } from "vitest";
import { defineLifecycle, LifecycleTableError, type LifecycleDefinition, type TransitionTable } from "./define";

// Tables a type check would refuse, built through `unknown` so the runtime check is what is tested.
const raw = (def: unknown) => () => defineLifecycle(def as LifecycleDefinition<string, string>);
const base = {
  name: "door",
  states: ["open", "closed", "gone"],
  initial: ["open"],
  terminal: ["gone"],
  transitions: { open: ["closed"], closed: ["open", "gone"], gone: [] },
};

describe("defineLifecycle", () => {
  it("derives the enum, the terminal and active states and the allowed moves from the table", () => {
    const door = defineLifecycle({
      name: "door",
      states: ["open", "closed", "gone"],
      initial: ["open"],
      terminal: ["gone"],
      transitions: { open: ["closed"], closed: ["open", "gone"], gone: [] },
    });
    expect(door.schema.options).toEqual(["open", "closed", "gone"]);
    expect(door.schema.safeParse("ajar").success).toBe(false);
    expect(door.active).toEqual(["open", "closed"]);
    expect([door.isTerminal("gone"), door.isTerminal("open"), door.isTerminal("ajar")]).toEqual([true, false, false]);
    expect([door.isActive("closed"), door.isActive("gone"), door.isActive("ajar")]).toEqual([true, false, false]);
    expect([door.canMove("open", "closed"), door.canMove("open", "gone"), door.canMove("gone", "open"), door.canMove("ajar", "open")]).toEqual([
      true,
      false,
      false,
      false,
    ]);
  });

  it("refuses at compile time a terminal state with moves and an active state without", () => {
    // Only the rows vary; they are typed as the table of this two-state door.
    const door = (transitions: TransitionTable<"open" | "gone", "gone">) => () =>
      defineLifecycle({ name: "door", states: ["open", "gone"], initial: ["open"], terminal: ["gone"], transitions });
    // @ts-expect-error a terminal state's row must be empty
    expect(door({ open: ["gone"], gone: ["open"] })).toThrow(/terminal state "gone" has moves/);
    // @ts-expect-error a non-terminal state must name somewhere to go
    expect(door({ open: [], gone: [] })).toThrow(/"open" has no moves but is not terminal/);
  });

  it.each([
    ["a move to a state that does not exist", { transitions: { open: ["ajar"], closed: ["open", "gone"], gone: [] } }, /"ajar" is not a state/],
    ["a move to itself", { transitions: { open: ["open", "closed"], closed: ["gone"], gone: [] } }, /does not move to itself/],
    ["a state without a row", { transitions: { open: ["closed"], gone: [] } }, /"closed" has no row/],
    ["a row for a state that is not listed", { transitions: { ...base.transitions, ajar: ["open"] } }, /row "ajar" is not a state/],
    ["a state listed twice", { states: ["open", "closed", "gone", "open"] }, /listed twice/],
    ["a terminal name that is not a state", { terminal: ["gone", "burnt"], transitions: { ...base.transitions } }, /terminal "burnt" is not a state/],
    ["an initial name that is not a state", { initial: ["ajar"] }, /initial "ajar" is not a state/],
    ["a state no row leads to", { states: ["open", "closed", "gone", "locked"], transitions: { ...base.transitions, locked: ["open"] } }, /no row leads to locked/],
  ])("refuses a table with %s", (_what, change, message) => {
    const run = raw({ ...base, ...change });
    expect(run).toThrow(LifecycleTableError);
    expect(run).toThrow(message);
  });
});
