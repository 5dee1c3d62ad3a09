// Resuming a stopped attempt through the real worker: a fixture job checkpoints on SIGTERM
// and exits 130 (cancelled), then a second job given `checkpoints:<first job id>` reads the
// saved checkpoint files; the first job's files stay while the second runs.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkpointsRef } from "../../contracts/worker";
import { submitJob, waitFor, waitForJob } from "../testing/harness";
import { workerHomeForFile } from "../testing/shared-home";

const w = workerHomeForFile({ capacity: { cpus: 4, ramGb: 8 } });

async function stoppedWithCheckpoint(): Promise<string> {
  const first = await submitJob(w, "ckpt");
  expect(first.ok).toBe(true);
  const jobId = first.receipt.jobId as string;
  const events = path.join(w.home, "jobs", jobId, "events.jsonl");
  await waitFor("the first attempt to step", () => fs.existsSync(events) && fs.readFileSync(events, "utf8").includes('"step": 2'));
  expect((await w.control({ op: "cancel", jobId })).ok).toBe(true);
  const stopped = await waitForJob(w, jobId);
  expect(stopped).toMatchObject({ state: "cancelled", exitCode: 130 });
  return jobId;
}

describe("resume from checkpoints:<jobId>", () => {
  it("a new job sees the checkpoint files a cancelled job saved on SIGTERM", async () => {
    const oldId = await stoppedWithCheckpoint();
    const saved = fs.readdirSync(path.join(w.home, "jobs", oldId, "checkpoints"));
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatch(/^checkpoint-\d+$/);

    const second = await submitJob(w, "ckpt", { resumeFrom: checkpointsRef(oldId) });
    expect(second.ok).toBe(true);
    expect(second.receipt.inputRefs).toEqual([checkpointsRef(oldId)]);
    const done = await waitForJob(w, second.receipt.jobId);
    expect(done.state).toBe("succeeded");
    const out = JSON.parse(fs.readFileSync(path.join(w.home, "jobs", done.jobId, "output", "resumed.json"), "utf8"));
    const step = Number(saved[0]!.split("-")[1]);
    expect(out).toEqual({ from: path.join(w.home, "jobs", oldId, "checkpoints"), checkpoints: { [saved[0]!]: { step, job: oldId } } });
  });

  it("is refused with missing_input for a job that succeeded", async () => {
    const ok = await submitJob(w, "quick");
    await waitForJob(w, ok.receipt.jobId);
    const res = await submitJob(w, "ckpt", { resumeFrom: checkpointsRef(ok.receipt.jobId) });
    expect(res.ok).toBe(false);
    expect(res.error.code).toBe("missing_input");
    expect(res.error.message).toContain(`job ${ok.receipt.jobId} succeeded: there is nothing to resume`);
  });

  it("gc keeps the old attempt's checkpoints while the resuming job is queued", async () => {
    const oldId = await stoppedWithCheckpoint();
    // Hold the resuming job in the queue behind a job that takes every CPU.
    const blocker = await submitJob(w, "sleepy", { seconds: 30 }, { resources: { cpus: 4, ramGb: 0.1 } });
    const waiting = await submitJob(w, "ckpt", { resumeFrom: checkpointsRef(oldId) });
    expect(waiting.receipt.state).toBe("queued");
    const swept = await w.control({ op: "gc", olderThanDays: 0, dryRun: false });
    expect(swept.ok).toBe(true);
    expect(swept.jobs).not.toContain(oldId);
    expect(fs.readdirSync(path.join(w.home, "jobs", oldId, "checkpoints"))).toHaveLength(1);
    await w.control({ op: "cancel", jobId: waiting.receipt.jobId });
    await w.control({ op: "cancel", jobId: blocker.receipt.jobId });
    await waitForJob(w, waiting.receipt.jobId);
    await waitForJob(w, blocker.receipt.jobId);
    const after = await w.control({ op: "gc", olderThanDays: 0, dryRun: false });
    expect(after.jobs).toContain(oldId);
  });
});
