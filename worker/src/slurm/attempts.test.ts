// The attempts a job on a Slurm computer records in its receipt: what the fine-tune page
// reads ("preempted by Slurm, resumed at step N") and what reconcile reads to say why a
// Slurm job that ended for good left no outcome. Real receipts in a throw-away worker home.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { TReceipt } from "../../../contracts/worker/receipt";
import { loadConfig } from "../config";
import { Home } from "../home";
import { createJob } from "../ops/createjob";
import { updateReceipt } from "../receipts";
import { recordSlurmAttempt, recordUnsaidRequeue, stoppedBySlurm } from "./attempts";

let dir: string;
let home: Home;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "trainyard-attempts-"));
  fs.writeFileSync(path.join(dir, "config.json"), JSON.stringify({ capacity: { cpus: 2, ramGb: 4, gpus: 0 } }));
  const cfg = loadConfig(dir);
  home = new Home(cfg);
  home.ensure();
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A job running as Slurm job 41, its recipe started. */
function runningInSlurm(): TReceipt {
  const r = createJob({ cfg: home.cfg, home }, {
    opId: "op-1", intentHash: "i-1", kind: "run", recipe: "llm-lora", job: "train", environmentId: "e".repeat(64),
    priority: 0, resources: { cpus: 1, ramGb: 0 }, deadlineSeconds: 600, graceSeconds: 5, input: {}, inputRefs: [],
  });
  const recipeProcess = { pid: 1234, startTime: 99, bootId: "boot" };
  return updateReceipt(home, r.jobId, (x) => ({ ...x, state: "running", slurm: { jobId: "41", partition: "debug", submittedAt: "2026-12-07T05:00:00.000Z" }, recipeProcess }));
}

describe("a job's Slurm attempts", () => {
  it("a time limit's attempt names the Slurm job that carries the job on, in the same write", () => {
    const r = runningInSlurm();
    const after = recordSlurmAttempt(home, r.jobId, "time_limit", "2026-12-07T05:01:00.000Z", { jobId: "42", partition: "debug", submittedAt: "2026-12-07T05:09:00.000Z" });
    expect(after.slurmAttempts).toEqual([{ slurmJobId: "41", startedAt: "2026-12-07T05:01:00.000Z", endedAt: expect.any(String), reason: "time_limit" }]);
    expect(after.slurm!.jobId).toBe("42");
    expect(after.recipeProcess).toBeNull();
    expect(stoppedBySlurm(after)).toBe(false);
  });

  it("a preemption keeps the Slurm job, and the job counts as stopped by Slurm until a recipe runs again", () => {
    const r = runningInSlurm();
    expect(stoppedBySlurm(r)).toBe(false);
    const stopped = recordSlurmAttempt(home, r.jobId, "preempted", "2026-12-07T05:01:00.000Z");
    expect(stopped.slurm!.jobId).toBe("41");
    expect(stoppedBySlurm(stopped)).toBe(true);
    // Slurm started it again: SLURM_RESTART_COUNT=1, already said by the stopped supervisor.
    expect(recordUnsaidRequeue(home, stopped, "41", 1).slurmAttempts).toHaveLength(1);
    const again = updateReceipt(home, r.jobId, (x) => ({ ...x, recipeProcess: { pid: 5678, startTime: 100, bootId: "boot" } }));
    expect(stoppedBySlurm(again)).toBe(false);
  });

  it("a requeue whose supervisor was killed before it could say so is recorded by the next, without a start", () => {
    const r = runningInSlurm();
    const told = recordUnsaidRequeue(home, r, "41", 1);
    expect(told.slurmAttempts).toEqual([{ slurmJobId: "41", startedAt: null, endedAt: expect.any(String), reason: "preempted" }]);
    // Not a requeue (the first run, or a new Slurm job after a time limit): nothing to record.
    expect(recordUnsaidRequeue(home, runningInSlurm(), "41", 0).slurmAttempts).toEqual([]);
  });
});
