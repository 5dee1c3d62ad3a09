import { describe, expect, it } from "vitest";
import { acknowledgementWords, actorWords, aliasMoveWords, canPromote, refusalOf } from "./decision-words";
import type { Decision } from "./registry-types";

const comparable = { comparable: true as const, reason: "Both scored accuracy on the same split, snapshot and evaluator." };
const notBetter = (candidate: number, selected: number): Decision => ({
  verdict: "needs_acknowledgement",
  why: "not_better",
  reason: "…",
  comparability: comparable,
  metric: "balanced_accuracy",
  candidate,
  selected,
  improvement: candidate - selected,
});

describe("the acknowledgement a promotion needs", () => {
  it("names the metric and both values for a regression", () => {
    expect(acknowledgementWords(notBetter(0.79, 0.81), 2, 1)).toBe("I accept a regression on balanced_accuracy: 0.8100 → 0.7900");
  });
  it("says 'no useful gain' when the candidate is as good but not better enough", () => {
    expect(acknowledgementWords(notBetter(0.81, 0.81), 2, 1)).toBe("I accept no useful gain on balanced_accuracy: 0.8100 → 0.8100");
  });
  it("says why an incomparable pair cannot be compared", () => {
    const comp = {
      comparable: false as const,
      reason: "Not comparable: the metric differs.",
      differences: [{ field: "primaryMetric", words: "metric", a: "accuracy", b: "balanced_accuracy" }],
    };
    const d: Decision = { verdict: "needs_acknowledgement", why: "not_comparable", reason: comp.reason, comparability: comp, metric: "accuracy", candidate: 0.9, selected: 0.8, improvement: null };
    expect(acknowledgementWords(d, 3, 1)).toBe("I accept promoting version 3 although it cannot be compared with version 1: the metric differs.");
  });
  it("asks nothing when the gate promotes on the evidence, and refuses what cannot be promoted", () => {
    const better: Decision = { verdict: "better", reason: "…", metric: "accuracy", candidate: 0.9, selected: 0.8, improvement: 0.1 };
    expect(acknowledgementWords(better, 2, 1)).toBeNull();
    expect(canPromote(better)).toBe(true);
    expect(canPromote({ verdict: "export_missing", reason: "…" })).toBe(false);
    expect(canPromote({ verdict: "needs_evaluation", reason: "…" })).toBe(false);
    expect(canPromote({ verdict: "already_selected", reason: "…" })).toBe(false);
  });
});

describe("a refusal read from a tRPC error", () => {
  it("keeps the reason code, the refreshed revision and decision", () => {
    const decision: Decision = { verdict: "already_selected", reason: "Version 2 already holds it." };
    const err = { message: "The model is at revision 3, not 2", data: { details: { code: "stale_revision", model: { revision: 3 }, decision } } };
    expect(refusalOf(err)).toEqual({ message: "The model is at revision 3, not 2", code: "stale_revision", revision: 3, decision });
  });
  it("is null without an error and has no revision when the server sent none", () => {
    expect(refusalOf(null)).toBeNull();
    expect(refusalOf({ message: "x", data: { details: null } })).toEqual({ message: "x", code: null, revision: null, decision: null });
  });
});

describe("the selection history in words", () => {
  it("says what changed as a person would, without revisions or 'nothing →'", () => {
    expect(aliasMoveWords({ kind: "promote", alias: "selected", from: null, to: { number: 1 } })).toBe("Version 1 selected (the first)");
    expect(aliasMoveWords({ kind: "promote", alias: "selected", from: { number: 1 }, to: { number: 2 } })).toBe("Version 2 selected, replacing version 1");
    expect(aliasMoveWords({ kind: "rollback", alias: "selected", from: { number: 2 }, to: { number: 1 } })).toBe("Rolled back to version 1 (from version 2)");
    expect(aliasMoveWords({ kind: "promote", alias: "staging", from: null, to: { number: 3 } })).toBe("Version 3 marked “staging” (the first)");
    expect(actorWords({ kind: "open", name: "loopback (no owner password set)" })).toBe("you (no owner password is set)");
  });
});
