import { describe, expect, it } from "vitest";
import { decideOutcome, type OutcomeInput } from "./outcome";

const base: OutcomeInput = { stop: null, exit: { kind: "exited", code: 0 }, manifestOk: true, oomKilled: false, diskFullEvidence: false };
const o = (p: Partial<OutcomeInput>) => decideOutcome({ ...base, ...p });

describe("exit → outcome mapping", () => {
  it("0 with a valid manifest succeeds; an invalid one is manifest_invalid", () => {
    expect(o({})).toEqual({ state: "succeeded", reason: "completed" });
    expect(o({ manifestOk: false })).toEqual({ state: "failed", reason: "manifest_invalid" });
  });
  it("2 is bad_input, 1 and 130-without-cancel are exit_code", () => {
    expect(o({ exit: { kind: "exited", code: 2 } })).toEqual({ state: "failed", reason: "bad_input" });
    expect(o({ exit: { kind: "exited", code: 1 } })).toEqual({ state: "failed", reason: "exit_code" });
    expect(o({ exit: { kind: "exited", code: 130 } })).toEqual({ state: "failed", reason: "exit_code" });
  });
  it("a stop cause wins over the exit code", () => {
    expect(o({ stop: "cancel", exit: { kind: "exited", code: 130 } })).toEqual({ state: "cancelled", reason: "cancel_requested" });
    expect(o({ stop: "cancel", exit: { kind: "signalled", signal: "SIGKILL" } }).state).toBe("cancelled");
    expect(o({ stop: "deadline", exit: { kind: "signalled", signal: "SIGTERM" } })).toEqual({ state: "timed_out", reason: "deadline" });
    expect(o({ stop: "disk_full" })).toEqual({ state: "failed", reason: "disk_full" });
    expect(o({ stop: "memory", exit: { kind: "exited", code: 130 } })).toEqual({ state: "failed", reason: "out_of_memory" });
  });
  it("SIGKILL without cancel is out_of_memory only when the kernel says so", () => {
    expect(o({ exit: { kind: "signalled", signal: "SIGKILL" }, oomKilled: true }).reason).toBe("out_of_memory");
    expect(o({ exit: { kind: "signalled", signal: "SIGKILL" } }).reason).toBe("exit_code");
  });
  it("a non-zero exit with disk-full evidence is disk_full", () => {
    expect(o({ exit: { kind: "exited", code: 1 }, diskFullEvidence: true }).reason).toBe("disk_full");
  });
});
