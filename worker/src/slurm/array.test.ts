import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ZReceipt, type TReceipt } from "../../../contracts/worker/receipt";
import { slurmJobIdHere } from "./commands";
import { ARRAY_GATHER_MS, arraySpec, gatherArrays } from "./array";
import { batchCaseScript } from "./script";

describe("a Slurm job array's --array value", () => {
  it("is a range when the tasks are contiguous and a list when one is missing, with the limit after %", () => {
    expect(arraySpec([0, 1, 2, 3], 2)).toBe("0-3%2");
    expect(arraySpec([3, 1, 0, 2], 2)).toBe("0-3%2");
    expect(arraySpec([0, 2, 3], 2)).toBe("0,2,3%2");
    expect(arraySpec([3], 2)).toBe("3%2");
  });
});

describe("the array's batch script", () => {
  it("runs the job its task index names, its output appended to that job's log, and fails an index with no job", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "slurm-array-"));
    const tasks = [0, 2].map((index) => ({ index, log: path.join(dir, `job ${index}'s.log`), argv: [process.execPath, "-e", "console.log(JSON.stringify(process.argv.slice(1)))", `task ${index}`, "$(touch pwned)"] }));
    const file = path.join(dir, "array.sh");
    writeFileSync(file, batchCaseScript(tasks));
    for (const t of tasks) {
      execFileSync("sh", [file], { cwd: dir, env: { ...process.env, SLURM_ARRAY_TASK_ID: String(t.index) } });
      expect(JSON.parse(readFileSync(t.log, "utf8"))).toEqual([`task ${t.index}`, "$(touch pwned)"]);
    }
    expect(() => execFileSync("sh", [file], { cwd: dir, env: { ...process.env, SLURM_ARRAY_TASK_ID: "1" }, stdio: "pipe" })).toThrow(/no job for Slurm array task 1/);
    expect(() => execFileSync("test", ["-e", path.join(dir, "pwned")])).toThrow();
  });
});

describe("the Slurm job id a supervisor runs under", () => {
  it("is an array's task as <array>_<index>, else the job's own id", () => {
    expect(slurmJobIdHere({ SLURM_JOB_ID: "17", SLURM_ARRAY_JOB_ID: "12", SLURM_ARRAY_TASK_ID: "3" })).toBe("12_3");
    expect(slurmJobIdHere({ SLURM_JOB_ID: "17" })).toBe("17");
  });
});

describe("gathering an array's jobs", () => {
  const t0 = Date.parse("2026-12-08T00:00:00Z");
  const member = (jobId: string, index: number, state: TReceipt["state"] = "queued", createdAt = t0): TReceipt =>
    ZReceipt.parse({
      jobId, opId: `op-${jobId}`, intentHash: "h", kind: "run", recipe: "tabular", job: "train", environmentId: "e".repeat(64), state, reason: null, queuedReason: null, detail: null,
      exitCode: null, signal: null, priority: 0, seq: index, resources: { cpus: 1, ramGb: 1 }, reservation: null, reservationReleasedAt: null, createdAt: new Date(createdAt).toISOString(),
      admittedAt: null, startedAt: null, endedAt: null, deadlineSeconds: 60, deadlineAt: null, graceSeconds: 5, cancelRequestedAt: null, bootId: "b", supervisor: null, recipeProcess: null,
      slurmArray: { group: "search-s1-round-1", size: 3, limit: 2, index },
      usage: { wallSeconds: null, cpuSeconds: null, peakRssBytes: null, peakPssBytes: null, outputBytes: null }, report: null, outputSha256: null, logBytes: 0, logDroppedBytes: 0, eventsBytes: 0, inputRefs: [], jobDir: "/x", gcAt: null,
    });

  it("holds the jobs until every one of the array has come, saying how many have", () => {
    const q = [member("a", 0), member("b", 1)];
    const g = gatherArrays(q, q, t0 + 1000);
    expect(g.send).toEqual([]);
    expect(g.wait.map((w) => w.reason)).toEqual(Array(2).fill("waiting for the rest of its Slurm job array (2 of 3 jobs here; at most 19 s more)"));
    const all = [...q, member("c", 2)];
    expect(gatherArrays(all, all, t0 + 1000).send.map((s) => s.map((r) => r.jobId))).toEqual([["a", "b", "c"]]);
  });

  it("counts a job that ended before it went (cancelled while it waited) as come", () => {
    const q = [member("a", 0), member("b", 1)];
    expect(gatherArrays(q, [...q, member("c", 2, "cancelled")], t0).send).toHaveLength(1);
  });

  it("sends the jobs that came once the first has waited the gathering time", () => {
    const q = [member("a", 0), member("b", 1, "queued", t0 + 5000)];
    expect(gatherArrays(q, q, t0 + ARRAY_GATHER_MS - 1).send).toEqual([]);
    expect(gatherArrays(q, q, t0 + ARRAY_GATHER_MS).send.map((s) => s.map((r) => r.jobId))).toEqual([["a", "b"]]);
  });
});
