// The queue with real processes: more jobs than slots wait, then run by priority and
// order, never more at once than the ledger allows — with no controller running, since
// finishing supervisors start the next jobs themselves. And one opId submitted 50 times
// at once makes one job that runs once.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isTerminal } from "../../contracts/worker";
import { fixtureEnv, readReceiptFile, submitJob, waitFor, waitForJob } from "../testing/harness";
import { workerHomeForFile } from "../testing/shared-home";

const w = workerHomeForFile({ capacity: { cpus: 2, ramGb: 8 } });

function maxConcurrent(lines: string[]): number {
  const ev = lines.map((l) => l.split(" ")).map(([kind, , t]) => ({ d: kind === "start" ? 1 : -1, t: Number(t) }));
  ev.sort((a, b) => a.t - b.t || a.d - b.d);
  let cur = 0;
  let max = 0;
  for (const e of ev) max = Math.max(max, (cur += e.d));
  return max;
}

describe("queue", () => {
  it("more jobs than slots: queued, then run by priority and order, never more than the ledger allows, with no controller", async () => {
    const runLog = path.join(w.home, "queue.runlog");
    const submitted: Record<string, string> = {};
    let first: ReturnType<typeof readReceiptFile> = null;
    // A and B hold both slots long enough for the other submits to queue behind them even
    // when each submit (a process start) takes seconds on a loaded machine.
    for (const [name, priority, seconds] of [["A", 0, 6], ["B", 0, 6], ["C", 0, 1], ["D", 5, 1], ["E", 0, 1], ["F", 5, 1]] as const) {
      const s = await submitJob(w, "sleepy", { seconds, runLog }, { priority });
      expect(s.ok).toBe(true);
      submitted[name] = s.receipt.jobId;
      if (name === "C") first = readReceiptFile(w.home, s.receipt.jobId);
    }
    expect(first?.state).toBe("queued");
    expect(first?.queuedReason).toMatch(/CPUs/);
    // The same, typed: what it waits for and which jobs hold it.
    expect(first?.waitingFor).toMatchObject({ resource: "cpus", reserved: 2, capacity: 2, holders: [submitted.A, submitted.B] });

    // No more control calls: only the receipt files, written by the supervisors.
    await waitFor("all jobs terminal", () => Object.values(submitted).every((id) => {
      const r = readReceiptFile(w.home, id);
      return r && isTerminal(r.state);
    }), 60_000, 200);
    const rs = Object.fromEntries(Object.entries(submitted).map(([k, id]) => [k, readReceiptFile(w.home, id)!]));
    for (const r of Object.values(rs)) expect(r.state).toBe("succeeded");
    const at = (k: string) => Date.parse(rs[k]!.admittedAt!);
    expect(at("D")).toBeLessThanOrEqual(at("F"));
    expect(at("F")).toBeLessThan(at("C"));
    expect(at("C")).toBeLessThanOrEqual(at("E"));
    const lines = fs.readFileSync(runLog, "utf8").trim().split("\n");
    expect(lines).toHaveLength(12);
    expect(maxConcurrent(lines)).toBe(2);
    // A supervisor releases its reservation just after writing the terminal receipt.
    const reservations = () => JSON.parse(fs.readFileSync(path.join(w.home, "ledger.json"), "utf8")).reservations;
    await waitFor("every reservation released", () => Object.keys(reservations()).length === 0, 10_000, 100);
    expect(reservations()).toEqual({});
  });

  it("50 concurrent submits with one opId make one job and one process", async () => {
    const env = await fixtureEnv();
    const runLog = path.join(w.home, "fifty.runlog");
    const before = fs.readdirSync(path.join(w.home, "receipts")).length;
    const req = { op: "submit", opId: "same-op-50", intentHash: "same", recipe: "wk", job: "sleepy", environmentId: env, input: { seconds: 0.5, runLog }, resources: { cpus: 1, ramGb: 0.1 }, deadlineSeconds: 60 };
    const answers = await Promise.all(Array.from({ length: 50 }, () => w.control(req)));
    for (const a of answers) expect(a.ok, JSON.stringify(a.error)).toBe(true);
    const ids = new Set(answers.map((a) => a.receipt.jobId));
    expect(ids.size).toBe(1);
    expect(answers.filter((a) => a.created)).toHaveLength(1);
    expect(fs.readdirSync(path.join(w.home, "receipts")).length).toBe(before + 1);
    const r = await waitForJob(w, [...ids][0]!);
    expect(r.state).toBe("succeeded");
    expect(fs.readFileSync(runLog, "utf8").trim().split("\n").filter((l) => l.startsWith("start"))).toHaveLength(1);
  });
});
