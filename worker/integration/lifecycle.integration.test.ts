// A job's whole path through the real worker: submit → supervisor → recipe → verified
// outputs, and the failure classes (bad input, deadline, invalid manifests, missing inputs).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ZReceipt, parseWorkerResponse } from "../../contracts/worker";
import { importAndWait, makeHome, submitJob, waitForJob } from "../testing/harness";
import { workerHomeForFile } from "../testing/shared-home";

const w = workerHomeForFile({ capacity: { cpus: 4, ramGb: 8 } });

describe("job lifecycle", () => {
  it("a quick job succeeds with a verified, read-only output and a state audit trail", async () => {
    const s = await submitJob(w, "sleepy", { seconds: 0.3 });
    expect(s.ok).toBe(true);
    expect(s.created).toBe(true);
    const r = ZReceipt.parse(await waitForJob(w, s.receipt.jobId));
    expect(r).toMatchObject({ state: "succeeded", reason: "completed", exitCode: 0 });
    expect(r.outputSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(r.report).toMatchObject({ status: "completed", metrics: { ok: 1 } });
    expect(r.usage.wallSeconds).toBeGreaterThan(0.2);
    expect(r.supervisor?.pid).toBeGreaterThan(0);
    expect(r.recipeProcess?.startTime).toBeGreaterThan(0);
    expect(r.reservationReleasedAt).not.toBeNull();

    const a = await w.control({ op: "artifacts", jobId: r.jobId });
    expect(parseWorkerResponse("artifacts", a).ok).toBe(true);
    expect(parseWorkerResponse("submit", s).ok).toBe(true);
    expect(a.files).toEqual([expect.objectContaining({ path: "result.txt" })]);
    const f = await w.control({ op: "fetch", jobId: r.jobId, path: "result.txt" });
    expect(fs.readFileSync(f.path, "utf8")).toBe(`slept ${r.jobId}\n`);
    expect(fs.statSync(f.path).mode & 0o777).toBe(0o444);
    expect((await w.control({ op: "fetch", jobId: r.jobId, path: "../input.json" })).error.code).toBe("path_not_allowed");

    const ev = await w.control({ op: "logs", jobId: r.jobId, stream: "events", offset: 0 });
    const lines = ev.data.trim().split("\n").map((l: string) => JSON.parse(l));
    const states = lines.filter((l: { type: string }) => l.type === "state").map((l: { to: string }) => l.to);
    expect(states).toEqual(["queued", "admitted", "running", "succeeded"]);
    expect(lines.some((l: { type: string }) => l.type === "progress")).toBe(true);
    expect(ev.eof).toBe(true);
  });

  it("same opId + same intent returns the first receipt; another intent is op_conflict", async () => {
    const s = await submitJob(w, "quick", {}, { opId: "fixed-op", intentHash: "h1" });
    const again = await submitJob(w, "quick", {}, { opId: "fixed-op", intentHash: "h1" });
    expect(again.created).toBe(false);
    expect(again.receipt.jobId).toBe(s.receipt.jobId);
    const conflict = await submitJob(w, "quick", {}, { opId: "fixed-op", intentHash: "h2" });
    expect(conflict.error.code).toBe("op_conflict");
    const byOp = await w.control({ op: "inspect", opId: "fixed-op" });
    expect(byOp.receipt.jobId).toBe(s.receipt.jobId);
  });

  it("exit code 2 is failed/bad_input; the log holds the recipe's stderr", async () => {
    const s = await submitJob(w, "exit2");
    const r = await waitForJob(w, s.receipt.jobId);
    expect(r).toMatchObject({ state: "failed", reason: "bad_input", exitCode: 2 });
    const log = await w.control({ op: "logs", jobId: r.jobId, stream: "log", offset: 0, maxBytes: 1000 });
    expect(log.data).toContain("bad input");
  });

  it("wall deadline ends the job timed_out", async () => {
    const s = await submitJob(w, "stubborn", {}, { deadlineSeconds: 1, graceSeconds: 0.5 });
    const r = await waitForJob(w, s.receipt.jobId);
    expect(r).toMatchObject({ state: "timed_out", reason: "deadline" });
    expect(r.usage.wallSeconds).toBeGreaterThanOrEqual(1);
  });

  it.each([
    ["badhash", /SHA-256 does not match/],
    ["escape", /'\.\.'/],
    ["symlink", /symlink/],
  ])("a manifest from %s fails with manifest_invalid", async (job, detail) => {
    const s = await submitJob(w, job);
    const r = await waitForJob(w, s.receipt.jobId);
    expect(r).toMatchObject({ state: "failed", reason: "manifest_invalid", outputSha256: null });
    expect(r.detail).toMatch(detail);
    expect((await w.control({ op: "artifacts", jobId: r.jobId })).error.code).toBe("not_found");
  });

  it("an output hard-linked to a file outside the output fails manifest_invalid and the other file is not chmodded", async () => {
    const s = await submitJob(w, "hardlink");
    const r = await waitForJob(w, s.receipt.jobId);
    expect(r).toMatchObject({ state: "failed", reason: "manifest_invalid", outputSha256: null });
    expect(r.detail).toMatch(/linked\.txt has 2 hard links/);
    expect(fs.statSync(path.join(r.jobDir, "work", "kept.txt")).mode & 0o777).toBe(0o644);
  });

  it("sha256 inputs resolve to read-only store paths or earlier outputs; unknown ones are missing_input", async () => {
    const missing = await submitJob(w, "echo", { file: `sha256:${"a".repeat(64)}` });
    expect(missing.error.code).toBe("missing_input");

    const src = path.join(w.home, "data.txt");
    fs.writeFileSync(src, "a,b\n1,2\n");
    fs.writeFileSync(path.join(w.home, "config.json"), JSON.stringify({ ...JSON.parse(fs.readFileSync(path.join(w.home, "config.json"), "utf8")), allowedRoots: [w.home] }));
    const { receipt: done } = await importAndWait(w, src);
    expect(done?.state).toBe("succeeded");
    const imp = { sha256: done!.outputSha256! };
    const s = await submitJob(w, "echo", { file: `sha256:${imp.sha256}` });
    const r = await waitForJob(w, s.receipt.jobId);
    expect(r.state).toBe("succeeded");
    const f = await w.control({ op: "fetch", jobId: r.jobId, path: "copy.bin" });
    expect(fs.readFileSync(f.path, "utf8")).toBe("a,b\n1,2\n");
    const echoed = JSON.parse(fs.readFileSync((await w.control({ op: "fetch", jobId: r.jobId, path: "input.json" })).path, "utf8"));
    expect(echoed.file).toBe(path.join(w.home, "store", imp.sha256.slice(0, 2), imp.sha256));

    // An earlier job's output, by the hash of its manifest, resolves to its output dir.
    const chained = await submitJob(w, "echo", { prev: `sha256:${r.outputSha256}` });
    const r2 = await waitForJob(w, chained.receipt.jobId);
    const echoed2 = JSON.parse(fs.readFileSync((await w.control({ op: "fetch", jobId: r2.jobId, path: "input.json" })).path, "utf8"));
    expect(echoed2.prev).toBe(path.join(r.jobDir, "output"));
  });

  it("usage sums CPU time over the process group and records peak RSS", async () => {
    const s = await submitJob(w, "burn", { cpu: 0.6 });
    const r = await waitForJob(w, s.receipt.jobId);
    expect(r.state).toBe("succeeded");
    // 0.6 s in the main process + 0.6 s in a child it reaped (cutime); sampled every 500 ms.
    expect(r.usage.cpuSeconds).toBeGreaterThan(1.0);
    expect(r.usage.peakRssBytes).toBeGreaterThan(4 * 1024 * 1024);
  });

  it("admission is refused below the free-disk threshold (disk_low)", async () => {
    const low = await makeHome({ minFreeDiskBytes: 1e18 });
    try {
      const s = await submitJob(low, "quick");
      expect(s.error.code).toBe("disk_low");
      expect(s.error.details.freeBytes).toBeGreaterThan(0);
    } finally {
      low.cleanup();
    }
  });

  it("requests larger than capacity are refused", async () => {
    const s = await submitJob(w, "quick", {}, { resources: { cpus: 64, ramGb: 1 } });
    expect(s.error.code).toBe("exceeds_capacity");
  });
});
