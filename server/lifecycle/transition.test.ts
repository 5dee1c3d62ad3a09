/**
 * Every lifecycle that lives in the database, through the one transition(): each move its
 * table allows is applied with its event row, in one transaction; a move it does not allow
 * is refused with IllegalTransitionError and writes nothing. Real SQLite, migrated.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { controllerJobLifecycle, experimentLifecycle, type Lifecycle } from "@/contracts/lifecycles";
import { checkStore, datasetStore, splitStore } from "@/server/datasets/data-lifecycles";
import type { Db } from "@/server/db/client";
import { experimentTransition, type ExperimentStatus } from "@/server/experiments/experiment-state";
import { transition as jobTransition } from "@/server/jobs/job-state";
import { openTestDb, seedJob } from "@/server/testing/test-db";
import { lifecycleEvents } from "./events";
import { IllegalTransitionError } from "./lifecycle-error";
import { transition, type LifecycleStore } from "./transition";

let db: Db;
let close: () => Promise<void>;
beforeAll(async () => ({ db, close } = await openTestDb()));
afterAll(async () => close());

/** Every allowed move, and for each state one move its row does not name. */
function moves(l: Pick<Lifecycle<string>, "states" | "canMove">) {
  const allowed = l.states.flatMap((from) => l.states.filter((to) => l.canMove(from, to)).map((to) => [from, to] as const));
  const refused = l.states.flatMap((from) => l.states.filter((to) => to !== from && !l.canMove(from, to)).slice(0, 1).map((to) => [from, to] as const));
  return { allowed, refused };
}

const sha = () => Array.from({ length: 64 }, () => "0123456789abcdef"[Math.floor(Math.random() * 16)]).join("");
let n = 0;

async function seedDataset(status: string) {
  const snapshotSha256 = sha();
  await db.snapshot.create({ data: { sha256: snapshotSha256, bytes: 10n } });
  return db.dataset.create({ data: { projectId: "p", name: `d${n++}`, snapshotSha256, sourceKind: "upload", sourceName: "x.csv", status } });
}
const seeds: Record<string, (status: string) => Promise<{ id: string }>> = {
  dataset: seedDataset,
  check: async (status) => db.datasetCheck.create({ data: { datasetId: (await seedDataset("ready")).id, target: "y", positiveClassKey: "null", status } }),
  split: async (status) => db.splitContract.create({ data: { snapshotSha256: sha(), settingsHash: sha(), settings: "{}", status } }),
};
const stores: [string, LifecycleStore<string, Record<string, unknown>>][] = [
  ["dataset", datasetStore as LifecycleStore<string, Record<string, unknown>>],
  ["check", checkStore as LifecycleStore<string, Record<string, unknown>>],
  ["split", splitStore as LifecycleStore<string, Record<string, unknown>>],
];
const statusOf = async (kind: string, id: string) =>
  kind === "dataset"
    ? (await db.dataset.findUniqueOrThrow({ where: { id } })).status
    : kind === "check"
      ? (await db.datasetCheck.findUniqueOrThrow({ where: { id } })).status
      : (await db.splitContract.findUniqueOrThrow({ where: { id } })).status;

describe.each(stores)("the %s lifecycle", (kind, store) => {
  const { allowed, refused } = moves(store.lifecycle);

  it.each(allowed)(`accepts ${kind} %s → %s, writing the status and one event row together`, async (from, to) => {
    const row = await seeds[kind]!(from);
    const r = await transition(db, store, row.id, to, { reason: "test", patch: { error: "e" } });
    expect(r).toEqual({ changed: true, from, to });
    expect(await statusOf(kind, row.id)).toBe(to);
    const events = await lifecycleEvents(db).of(kind, row.id);
    expect(events.map((e) => [e.from, e.to, e.reason])).toEqual([[from, to, "test"]]);
  });

  it.each(refused)(`refuses ${kind} %s → %s with IllegalTransitionError and writes nothing`, async (from, to) => {
    const row = await seeds[kind]!(from);
    const err = await transition(db, store, row.id, to, { patch: { error: "e" } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IllegalTransitionError);
    expect(err).toMatchObject({ code: "CONFLICT", details: { code: "illegal_transition", lifecycle: kind, from, to } });
    expect(await statusOf(kind, row.id)).toBe(from);
    expect(await lifecycleEvents(db).of(kind, row.id)).toEqual([]);
  });
});

describe("the generic transition()", () => {
  it("changes nothing when the row is already in the state asked for", async () => {
    const row = await seedDataset("ready");
    expect(await transition(db, datasetStore, row.id, "ready")).toEqual({ changed: false, from: "ready", to: "ready" });
    expect(await lifecycleEvents(db).of("dataset", row.id)).toEqual([]);
  });

  it("two racing writers from the same state: exactly one wins and one event is written", async () => {
    const row = await seedDataset("profiling");
    const results = await Promise.all([
      transition(db, datasetStore, row.id, "ready"),
      transition(db, datasetStore, row.id, "failed").catch((e: unknown) => e),
    ]);
    expect(results.filter((r) => (r as { changed?: boolean }).changed === true)).toHaveLength(1);
    expect(await lifecycleEvents(db).of("dataset", row.id)).toHaveLength(1);
  });

  it("a missing row is NOT_FOUND", async () => {
    await expect(transition(db, splitStore, "no-such-split", "ready")).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("the experiment lifecycle", () => {
  const seedExperiment = (status: string) =>
    db.experiment.create({
      data: {
        projectId: "p", opId: `op-${n++}`, intentHash: "h", name: "e", targetId: "t", targetRevision: 1, datasetId: "d", snapshotSha256: sha(),
        settings: "{}", budgetSeconds: 60, status, progressNote: "Copying the dataset…",
      },
    });
  const { allowed, refused } = moves(experimentLifecycle);

  it.each(allowed)("accepts %s → %s with its ExperimentTransition row, and a terminal one ends the progress note", async (from, to) => {
    const e = await seedExperiment(from);
    expect(await experimentTransition(db, e, to as ExperimentStatus, { reason: "why" })).toBe(true);
    const row = await db.experiment.findUniqueOrThrow({ where: { id: e.id } });
    expect([row.status, row.reason, row.revision]).toEqual([to, "why", e.revision + 1]);
    expect(row.progressNote).toBe(experimentLifecycle.isTerminal(to) ? null : "Copying the dataset…");
    expect(row.endedAt !== null).toBe(experimentLifecycle.isTerminal(to));
    const rows = await db.experimentTransition.findMany({ where: { experimentId: e.id } });
    expect(rows.map((t) => [t.from, t.to, t.reason])).toEqual([[from, to, "why"]]);
  });

  it.each(refused)("refuses %s → %s with IllegalTransitionError and writes nothing", async (from, to) => {
    const e = await seedExperiment(from);
    await expect(experimentTransition(db, e, to as ExperimentStatus, { reason: "why" })).rejects.toBeInstanceOf(IllegalTransitionError);
    const row = await db.experiment.findUniqueOrThrow({ where: { id: e.id } });
    expect([row.status, row.reason, row.revision]).toEqual([from, null, e.revision]);
    expect(await db.experimentTransition.count({ where: { experimentId: e.id } })).toBe(0);
  });

  it("moves only from the status the caller saw: a stale view changes nothing", async () => {
    const e = await seedExperiment("unknown");
    expect(await experimentTransition(db, { ...e, status: "running" }, "succeeded")).toBe(false);
    expect((await db.experiment.findUniqueOrThrow({ where: { id: e.id } })).status).toBe("unknown");
  });
});

describe("the job lifecycle (controller)", () => {
  const { allowed, refused } = moves(controllerJobLifecycle);

  it.each(allowed)("accepts %s → %s with its JobTransition row", async (from, to) => {
    const job = await seedJob(db, from);
    expect(await jobTransition(db, job.id, to as never, "why")).toEqual({ changed: true, from, to });
    expect((await db.job.findUniqueOrThrow({ where: { id: job.id } })).state).toBe(to);
    expect((await db.jobTransition.findMany({ where: { jobId: job.id } })).map((t) => [t.from, t.to])).toEqual([[from, to]]);
  });

  // The controller records observations: a late one is answered `changed: false`, not thrown.
  it.each(refused)("ignores %s → %s (a late observation) and writes nothing", async (from, to) => {
    const job = await seedJob(db, from);
    expect(await jobTransition(db, job.id, to as never, "why")).toEqual({ changed: false, from, to });
    expect((await db.job.findUniqueOrThrow({ where: { id: job.id } })).state).toBe(from);
    expect(await db.jobTransition.count({ where: { jobId: job.id } })).toBe(0);
  });
});
