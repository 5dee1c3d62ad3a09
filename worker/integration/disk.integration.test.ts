// Logs and disks: a 1 GiB output flood stays within the log cap with stable offsets;
// ENOSPC from the worker's writers (config test hook) and a real full tmpfs end the job
// `failed`/`disk_full` with no output left looking valid.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZReceipt } from "../../contracts/worker";
import { fixtureEnv, makeHome, submitJob, waitForJob, type WorkerHome } from "../testing/harness";

const CAP = 4 * 1024 * 1024;
let w: WorkerHome;
beforeAll(async () => {
  await fixtureEnv();
  w = await makeHome({ capacity: { cpus: 2, ramGb: 8 }, logCapBytes: CAP });
}, 180_000);
afterAll(() => w?.cleanup());

describe("log cap and full disks", () => {
  it("a 1 GiB log flood stays within the log cap, counts what it dropped, and keeps offsets stable", async () => {
    const s = await submitJob(w, "flood", { mb: 1024 });
    const early = await waitForJob(w, s.receipt.jobId, (r) => r.state !== "queued" && r.state !== "admitted");
    const firstRead = await w.control({ op: "logs", jobId: early.jobId, offset: 0, maxBytes: 4096 });
    const r = await waitForJob(w, s.receipt.jobId, undefined, 120_000);
    expect(r.state).toBe("succeeded");
    const logFile = path.join(r.jobDir, "log");
    expect(fs.statSync(logFile).size).toBeLessThanOrEqual(CAP);
    expect(r.logBytes).toBe(fs.statSync(logFile).size);
    expect(r.logDroppedBytes + r.logBytes).toBeGreaterThanOrEqual(1024 * 1024 * 1024);
    const again = await w.control({ op: "logs", jobId: r.jobId, offset: 0, maxBytes: 4096 });
    expect(again.data).toBe(firstRead.data);
    const tail = await w.control({ op: "logs", jobId: r.jobId, offset: r.logBytes - 300, maxBytes: 300 });
    expect(tail.data).toContain("log cap");
    expect(tail.eof).toBe(true);
    expect(tail.droppedBytes).toBe(r.logDroppedBytes);
    const big = await w.control({ op: "logs", jobId: r.jobId, offset: 0, maxBytes: 1024 * 1024 });
    expect(big.error.code).toBe("bad_request"); // one call reads at most 256 KiB
  });

  it("ENOSPC from the worker's writers (testFaults) ends the job failed/disk_full with no valid-looking output", async () => {
    const f = await makeHome({ capacity: { cpus: 2, ramGb: 8 }, testFaults: { enospcAfterBytes: 200_000 } });
    try {
      const s = await submitJob(f, "flood", { mb: 50 });
      const r = ZReceipt.parse(await waitForJob(f, s.receipt.jobId));
      expect(r).toMatchObject({ state: "failed", reason: "disk_full", outputSha256: null });
      expect(r.detail).toMatch(/no space left/i);
      expect(fs.existsSync(path.join(r.jobDir, "output"))).toBe(false);
      expect(fs.readdirSync(path.join(f.home, "index", "outputs"))).toEqual([]);
      expect(fs.statSync(path.join(r.jobDir, "log")).size).toBeLessThanOrEqual(200_000);
    } finally {
      f.cleanup();
    }
  });

  it("ENOSPC on the supervisor's very first write (claiming the job) also ends failed/disk_full", async () => {
    const f = await makeHome({ testFaults: { enospcAfterBytes: 0 } });
    try {
      const s = await submitJob(f, "quick");
      const r = await waitForJob(f, s.receipt.jobId);
      expect(r).toMatchObject({ state: "failed", reason: "disk_full", startedAt: null });
    } finally {
      f.cleanup();
    }
  });

  // Needs root (or CAP_SYS_ADMIN) to mount: without it this test fails and says so rather than checking nothing.
  it("a real full disk (8 MiB tmpfs home) ends failed/disk_full and the worker keeps working", async () => {
    const mnt = fs.mkdtempSync(path.join(os.tmpdir(), "trainyard-tmpfs-"));
    const m = spawnSync("mount", ["-t", "tmpfs", "-o", "size=8m", "tmpfs", mnt], { encoding: "utf8" });
    if (m.status !== 0) {
      const why = (m.stderr || m.error?.message || `exit ${m.status}`).trim();
      fs.rmSync(mnt, { recursive: true, force: true });
      throw new Error(`this test mounts an 8 MiB tmpfs and needs root or CAP_SYS_ADMIN: ${why}`);
    }
    try {
      const t = await makeHome({ capacity: { cpus: 2, ramGb: 8 } }, mnt);
      const s = await submitJob(t, "fill");
      expect(s.ok, JSON.stringify(s.error)).toBe(true);
      const r = ZReceipt.parse(await waitForJob(t, s.receipt.jobId));
      expect(r).toMatchObject({ state: "failed", reason: "disk_full" });
      expect(fs.existsSync(path.join(r.jobDir, "output"))).toBe(false);
      const ok = await submitJob(t, "sleepy", { seconds: 0.1 });
      expect((await waitForJob(t, ok.receipt.jobId)).state).toBe("succeeded");
    } finally {
      spawnSync("umount", ["-l", mnt]);
      fs.rmSync(mnt, { recursive: true, force: true });
    }
  });
});
