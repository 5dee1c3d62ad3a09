import { describe, expect, it } from "vitest";
import { ZHealthPolicy } from "@/contracts/monitoring/monitoring";
import { decide } from "./policy-decision";

const policy = ZHealthPolicy.parse({ rollbackTo: 1, maxFailureRate: 0.1, maxP95Ms: 250, minRequests: 20, failureLimit: 2, inconclusiveLimit: 3, consecutiveErrors: 4 });
const w = (seq: number, n: number, failureRate: number, p95Ms: number | null = 50, errorStreak = 0, closed = true) => ({
  seq,
  n,
  failureRate,
  p95Ms,
  errorStreak,
  closedAt: closed ? "2026-12-05T10:00:00.000Z" : null,
});

describe("a health policy's decision", () => {
  it("healthy windows: nothing; one breach under a limit of two: nothing yet; two: fail, naming the last", () => {
    expect(decide(policy, [w(1, 100, 0.01), w(2, 100, 0.05)])).toEqual({ kind: "none" });
    expect(decide(policy, [w(1, 100, 0.5)])).toEqual({ kind: "none" });
    const failed = decide(policy, [w(1, 100, 0.5), w(2, 100, 0.02), w(3, 100, 0.02, 500)]);
    expect(failed).toMatchObject({ kind: "fail", breach: "p95" });
    expect(failed.kind === "fail" && failed.words).toBe("2 windows over the limits, the last window 3: p95 ≤ 500 ms (limit 250 ms)");
  });

  it("p95 slower than every bucket (null with requests) breaches; a window under minRequests never does", () => {
    expect(decide({ ...policy, failureLimit: 1 }, [w(1, 100, 0, null)])).toMatchObject({ kind: "fail", breach: "p95" });
    expect(decide({ ...policy, failureLimit: 1 }, [w(1, 19, 1)])).toEqual({ kind: "none" });
  });

  it("errors in a row fail the release at once, whatever the window's size; an open window is not judged", () => {
    expect(decide(policy, [w(1, 4, 1, 50, 4)])).toMatchObject({ kind: "fail", breach: "consecutive_errors", words: "window 1: 4 requests in a row failed (limit 4)" });
    expect(decide(policy, [w(1, 100, 1, 50, 9, false)])).toEqual({ kind: "none" });
  });

  it("inconclusive windows in a row stop it for the owner; an empty window (a check with no traffic) is no evidence", () => {
    expect(decide(policy, [w(1, 5, 0), w(2, 0, 0), w(3, 5, 0)])).toEqual({ kind: "none" });
    expect(decide(policy, [w(1, 5, 0), w(2, 5, 0), w(3, 5, 0)])).toMatchObject({ kind: "wait" });
    expect(decide(policy, [w(1, 5, 0), w(2, 50, 0), w(3, 5, 0), w(4, 5, 0)])).toEqual({ kind: "none" });
  });
});
