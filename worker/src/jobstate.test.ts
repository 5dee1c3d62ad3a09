import { describe, expect, it } from "vitest";
import { JOB_STATES, TERMINAL_STATES, isTerminal } from "../../contracts/worker/states";
import { TRANSITIONS, canTransition } from "./jobstate";

describe("job state transitions", () => {
  it("terminal states have no way out", () => {
    for (const s of TERMINAL_STATES) expect(TRANSITIONS[s]).toEqual([]);
  });
  it("unknown is not terminal and reconciles to any real outcome, never back to running", () => {
    expect(isTerminal("unknown")).toBe(false);
    expect(TRANSITIONS.unknown).toEqual(expect.arrayContaining(["succeeded", "failed", "cancelled", "timed_out"]));
    expect(canTransition("unknown", "running")).toBe(false);
  });
  it("the happy path is queued → admitted → running → succeeded and nothing skips admission", () => {
    expect(canTransition("queued", "admitted")).toBe(true);
    expect(canTransition("admitted", "running")).toBe(true);
    expect(canTransition("running", "succeeded")).toBe(true);
    expect(canTransition("queued", "running")).toBe(false);
    expect(canTransition("queued", "succeeded")).toBe(false);
  });
  it("every state has a table row", () => {
    for (const s of JOB_STATES) expect(TRANSITIONS[s]).toBeDefined();
  });
});
