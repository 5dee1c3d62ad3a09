// A job's process group is identified by its recorded leader (pid + start time from
// /proc/<pid>/stat), never by the pid alone: when a process with the recorded pid exists
// but started at another time, the pid was reused and nothing is signalled. A real
// process (sleep) stands in for the stranger that got the job's old pid.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { TReceipt } from "../../contracts/worker/receipt";
import { identityOf, jobGroupMembers } from "../src/proc";
import { makeHome, pidAlive, readReceiptFile, submitJob, waitFor, waitForJob, type WorkerHome } from "../testing/harness";

let w: WorkerHome;
let stranger: ChildProcess | null = null;
beforeAll(async () => {
  w = await makeHome({ capacity: { cpus: 2, ramGb: 4 } });
});
afterAll(() => w?.cleanup());
afterEach(() => {
  stranger?.kill("SIGKILL");
  stranger = null;
});

/** A process in its own group (pgid = pid), like a recipe's leader, that is not the job's. */
function startStranger(): number {
  stranger = spawn("sleep", ["300"], { detached: true, stdio: "ignore" });
  return stranger.pid!;
}

/** Rewrite a finished job's receipt as an `unknown` job whose recorded leader has `pid`. */
async function unknownJobRecording(pid: number, startTime: number): Promise<TReceipt> {
  const s = await submitJob(w, "quick");
  const done = await waitForJob(w, s.receipt.jobId);
  // As a real unknown job's: its supervisor is gone. Forged while it still runs (a loaded
  // machine), its last writes could land over the forgery.
  const supervisor = done.supervisor?.pid;
  if (supervisor) await waitFor("the job's supervisor to exit", () => !pidAlive(supervisor), 30_000);
  const r = readReceiptFile(w.home, done.jobId)!;
  const forged: TReceipt = {
    ...r,
    state: "unknown",
    reason: "supervisor_gone",
    endedAt: null,
    recipeProcess: { pid, startTime, bootId: identityOf(pid)!.bootId },
  };
  fs.writeFileSync(path.join(w.home, "receipts", `${r.jobId}.json`), JSON.stringify(forged));
  return forged;
}

describe("process identity", () => {
  it("a group is the job's only while the process with the leader's pid has the recorded start time", () => {
    const pid = startStranger();
    const id = identityOf(pid)!;
    expect(jobGroupMembers(id).map((m) => m.pid)).toEqual([pid]);
    // Recorded earlier than the process really started: the pid has been reused.
    expect(jobGroupMembers({ ...id, startTime: id.startTime - 50 })).toEqual([]);
    expect(jobGroupMembers({ ...id, startTime: id.startTime + 50 })).toEqual([]);
  });

  it("cancelling a job whose recorded leader pid now belongs to another process never signals it", async () => {
    const pid = startStranger();
    const real = identityOf(pid)!;
    const forged = await unknownJobRecording(pid, real.startTime - 50);
    const c = await w.control({ op: "cancel", jobId: forged.jobId });
    expect(c.ok).toBe(true);
    const r = await waitForJob(w, forged.jobId);
    // Its supervisor is gone and no process of its group remains (the pid is another's): the
    // cancel's first read already finds it ended, interrupted.
    expect(r).toMatchObject({ state: "failed", reason: "interrupted" });
    // A reaper, had one been started, would have signalled within its grace period.
    await new Promise((res) => setTimeout(res, 1500));
    expect(pidAlive(pid)).toBe(true);
  });

  it("an unknown job whose leader still runs with the recorded start time is stopped by cancel", async () => {
    const pid = startStranger(); // stands in for the job's own leader this time
    const forged = await unknownJobRecording(pid, identityOf(pid)!.startTime);
    expect((await w.control({ op: "inspect", jobId: forged.jobId })).receipt.state).toBe("unknown");
    await w.control({ op: "cancel", jobId: forged.jobId });
    await waitFor("the group to be stopped", () => !pidAlive(pid), 30_000);
    const r = await waitForJob(w, forged.jobId);
    expect(r.state).toBe("cancelled");
  });
});
