import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventBus } from "@/server/events/bus";
import type { Db } from "@/server/db/client";
import { openTestDb, seedJob } from "@/server/testing/test-db";
import { ALLOWED_TRANSITIONS, canTransition, isActive, isTerminal, JOB_STATES, transition, type JobState } from "./job-state";

// The whole table, written out: a change to job-state.ts must change this on purpose.
const EXPECTED: Record<JobState, JobState[]> = {
  queued: ["admitted", "running", "succeeded", "failed", "cancelled", "timed_out", "unknown"],
  admitted: ["running", "succeeded", "failed", "cancelled", "timed_out", "unknown"],
  running: ["succeeded", "failed", "cancelled", "timed_out", "unknown"],
  unknown: ["queued", "admitted", "running", "succeeded", "failed", "cancelled", "timed_out"],
  succeeded: [],
  failed: [],
  cancelled: [],
  timed_out: [],
};

describe("transition table", () => {
  for (const from of JOB_STATES) {
    for (const to of JOB_STATES) {
      const allowed = EXPECTED[from].includes(to);
      it(`${from} → ${to} is ${allowed ? "allowed" : "refused"}`, () => {
        expect(canTransition(from, to)).toBe(allowed);
      });
    }
  }

  it("covers every state and nothing else", () => {
    expect(Object.keys(ALLOWED_TRANSITIONS).sort()).toEqual([...JOB_STATES].sort());
    expect(canTransition("bogus", "running")).toBe(false);
  });

  it("terminal states are exactly the four endings; unknown is active, not terminal", () => {
    expect(JOB_STATES.filter(isTerminal).sort()).toEqual(["cancelled", "failed", "succeeded", "timed_out"]);
    expect(JOB_STATES.filter(isActive).sort()).toEqual(["admitted", "queued", "running", "unknown"]);
    expect(isTerminal("unknown")).toBe(false);
    expect(isActive("unknown")).toBe(true);
    for (const s of JOB_STATES) expect(isTerminal(s)).toBe(ALLOWED_TRANSITIONS[s].length === 0);
  });
});

describe("transition()", () => {
  let db: Db;
  let close: () => Promise<void>;
  beforeAll(async () => ({ db, close } = await openTestDb()));
  afterAll(async () => close());

  it("changes the state, appends one transition row and publishes job.changed", async () => {
    const job = await seedJob(db, "queued");
    const seen: string[] = [];
    const off = eventBus().subscribe([`job:${job.id}`], (e) => seen.push(e.event.type === "job.changed" ? e.event.state : "?"));
    const r = await transition(db, job.id, "running", null, { startedAt: new Date() });
    off();
    expect(r).toEqual({ changed: true, from: "queued", to: "running" });
    const rows = await db.jobTransition.findMany({ where: { jobId: job.id } });
    expect(rows.map((x) => [x.from, x.to])).toEqual([["queued", "running"]]);
    expect(seen).toEqual(["running"]);
  });

  it("refuses a move the table forbids and leaves no trace", async () => {
    const job = await seedJob(db, "succeeded");
    const r = await transition(db, job.id, "running", null);
    expect(r.changed).toBe(false);
    expect((await db.job.findUniqueOrThrow({ where: { id: job.id } })).state).toBe("succeeded");
    expect(await db.jobTransition.count({ where: { jobId: job.id } })).toBe(0);
  });

  it("sets endedAt on terminal states and records the reason", async () => {
    const job = await seedJob(db, "running");
    await transition(db, job.id, "failed", "exit_code", { detail: "exit 1" });
    const row = await db.job.findUniqueOrThrow({ where: { id: job.id } });
    expect(row.endedAt).not.toBeNull();
    expect(row.reason).toBe("exit_code");
    expect(row.detail).toBe("exit 1");
  });

  it("two racing writers: exactly one wins", async () => {
    const job = await seedJob(db, "running");
    const results = await Promise.all([
      transition(db, job.id, "succeeded", "completed"),
      transition(db, job.id, "cancelled", "cancel_requested"),
      transition(db, job.id, "unknown", "unreachable"),
    ]);
    expect(results.filter((r) => r.changed)).toHaveLength(1);
    expect(await db.jobTransition.count({ where: { jobId: job.id } })).toBe(1);
  });
});
