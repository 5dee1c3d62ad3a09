/**
 * The request path's counts on a real, migrated SQLite database: windows close at exactly
 * their size, a paused monitor counts nothing, `closeWindowNow` closes a window of any
 * size, a failed flush loses nothing and counts nothing twice, and a new process (fresh
 * in-memory state) continues the open window from what was written.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Reference } from "@/contracts/recipes/data";
import type { Db } from "@/server/db/client";
import { recordRequest } from "@/server/deployments/deployment-stats";
import { openTestDb } from "@/server/testing/test-db";
import { closeWindowNow, countRequestsForMonitors, flushWindowCounts, forgetWatchers } from "./window-counts";

const reference: Reference = {
  version: 1,
  partition: "train",
  rows: 4,
  columns: [{ name: "island", kind: "categorical", categories: ["Biscoe", "Dream"], counts: [2, 2, 0, 0] }],
};

const windows = (db: Db) => db.monitorWindow.findMany({ where: { monitorId: "m1" }, orderBy: { seq: "asc" } });
/** Lets the request path's counting (it reads its watchers once, asynchronously) catch up. */
const settle = () => new Promise((r) => setTimeout(r, 50));

describe("a monitor's window counts", () => {
  let db: Db;
  let close: () => Promise<void>;
  const ask = (island: string | null, errorClass?: string) =>
    recordRequest(db, { releaseId: "r1", deploymentId: "d1", ms: 12, errorClass }, new Date(), errorClass ? null : [{ island }]);

  beforeAll(async () => {
    ({ db, close } = await openTestDb());
    countRequestsForMonitors();
    await db.monitor.create({
      data: { id: "m1", projectId: "p1", deploymentId: "d1", releaseId: "r1", state: "watching", windowRequests: 3, minRows: 10, alertAfter: 2, reference: JSON.stringify(reference) },
    });
  });
  afterAll(() => close?.());

  it("closes a window at exactly its size; its counts are bins, errors and latency, never values", async () => {
    for (const v of ["Biscoe", "Dream", "Torgersen", "Biscoe"]) await ask(v);
    await ask(null, "bad_input");
    await settle();
    await flushWindowCounts(db);
    const [first, second] = await windows(db);
    expect(first).toMatchObject({ seq: 1, requests: 3, rows: 3, histograms: JSON.stringify({ island: [1, 1, 1, 0] }), errors: "{}" });
    expect(first!.closedAt).not.toBeNull();
    expect(second).toMatchObject({ seq: 2, requests: 2, rows: 1, closedAt: null, errors: JSON.stringify({ bad_input: 1 }) });
    expect(JSON.parse(second!.latencyMs)).toEqual({ "25": 2 });
  });

  it("closes the open window now, whatever its size; the next request opens the next one", async () => {
    await closeWindowNow(db, "m1");
    await flushWindowCounts(db);
    expect((await windows(db)).map((w) => [w.seq, w.requests, w.closedAt !== null])).toEqual([[1, 3, true], [2, 2, true]]);
    await ask("Dream");
    await settle();
    await flushWindowCounts(db);
    expect((await windows(db)).at(-1)).toMatchObject({ seq: 3, requests: 1, closedAt: null });
  });

  it("a flush that fails puts its counts back: the next one writes them once", async () => {
    await ask("Dream");
    await settle();
    const spy = vi.spyOn(db, "$transaction").mockRejectedValueOnce(new Error("database is locked"));
    await expect(flushWindowCounts(db)).rejects.toThrow(/locked/);
    spy.mockRestore();
    await flushWindowCounts(db);
    expect((await windows(db)).at(-1)).toMatchObject({ seq: 3, requests: 2, histograms: JSON.stringify({ island: [0, 2, 0, 0] }) });
  });

  it("a paused monitor counts nothing", async () => {
    await db.monitor.update({ where: { id: "m1" }, data: { state: "paused" } });
    forgetWatchers(db, "r1");
    await ask("Dream");
    await settle();
    await flushWindowCounts(db);
    expect((await windows(db)).at(-1)).toMatchObject({ seq: 3, requests: 2 });
    await db.monitor.update({ where: { id: "m1" }, data: { state: "watching" } });
    forgetWatchers(db, "r1");
  });

  it("a fresh process continues the open window from the database: it closes after the one request it lacks", async () => {
    // What a restart leaves: the rows, not the memory (the counts' state is forgotten here as a new process has none).
    delete (globalThis as Record<symbol, unknown>)[Symbol.for("trainyard.monitorWindowCounts")];
    await ask("Biscoe");
    await settle();
    await flushWindowCounts(db);
    expect((await windows(db)).map((w) => [w.seq, w.requests, w.closedAt !== null])).toEqual([[1, 3, true], [2, 2, true], [3, 3, true]]);
  });
});
