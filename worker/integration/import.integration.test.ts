// Import by path is a supervised job, not work inside the control call: the call answers
// with a receipt at once, the copy reports bytes in events.jsonl, has its own deadline,
// can be cancelled, and no way out leaves a partial copy behind. Real worker processes;
// `testFaults.importChunkDelayMs` slows the copy (per 1 MiB) so it can be watched.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importReportOf, ZImportProgressEvent } from "../../contracts/worker/responses";
import { importAndWait, makeHome, pidAlive, waitForJob, type WorkerHome } from "../testing/harness";

const MiB = 1 << 20;
let w: WorkerHome;
let root: string;
let opSeq = 0;
beforeAll(async () => {
  const first = await makeHome();
  root = path.join(first.home, "root");
  fs.mkdirSync(root);
  // Every CPU booked by config would not matter: imports reserve nothing (checked below).
  w = await makeHome({ allowedRoots: [root], capacity: { cpus: 1, ramGb: 1 }, testFaults: { importChunkDelayMs: 150 } }, first.home);
});
afterAll(() => w?.cleanup());

function bigFile(name: string, mib: number): string {
  const f = path.join(root, name);
  fs.writeFileSync(f, crypto.randomBytes(mib * MiB));
  return f;
}

const startImport = (file: string, extra: Record<string, unknown> = {}) => w.control({ op: "import", opId: `imp-${++opSeq}-${Date.now()}`, path: file, ...extra });

async function progressLines(jobId: string) {
  const ev = await w.control({ op: "logs", jobId, stream: "events" });
  return (ev.data as string)
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { type: string })
    .filter((e) => e.type === "progress")
    .map((e) => ZImportProgressEvent.parse(e));
}

function leftovers(jobDir: string): string[] {
  const work = path.join(jobDir, "work");
  const inWork = fs.existsSync(work) ? fs.readdirSync(work) : [];
  const incoming = fs.readdirSync(path.join(w.home, "incoming")).filter((n) => n.includes("import"));
  return [...inWork, ...incoming];
}

describe("import job", () => {
  it("the control call returns a receipt before the copy ends; progress counts bytes up to the size", async () => {
    const f = bigFile("slow.bin", 12); // 12 chunks x 150 ms: the copy takes ~2 s
    const t0 = Date.now();
    const started = await startImport(f);
    const answeredMs = Date.now() - t0;
    expect(started).toMatchObject({ ok: true, created: true, receipt: { kind: "import", deadlineSeconds: 6 * 3600 } });
    expect(["queued", "admitted", "running"]).toContain(started.receipt.state);
    const done = await waitForJob(w, started.receipt.jobId);
    expect(done.state).toBe("succeeded");
    expect(Date.parse(done.endedAt!) - t0).toBeGreaterThan(answeredMs);
    const result = importReportOf(done)!.import!;
    expect(result.sha256).toBe(crypto.createHash("sha256").update(fs.readFileSync(f)).digest("hex"));
    expect(result.bytes).toBe(12 * MiB);
    expect(fs.statSync(result.path).mode & 0o777).toBe(0o444);
    const progress = await progressLines(done.jobId);
    expect(progress.length).toBeGreaterThan(2);
    expect(progress.map((p) => p.bytes)).toEqual([...progress.map((p) => p.bytes)].sort((a, b) => a - b));
    expect(progress.at(-1)).toMatchObject({ bytes: 12 * MiB, totalBytes: 12 * MiB });
    expect(done.reservation).toEqual({ cpus: 0, ramGb: 0, gpuIds: [], gpuShare: null });
    expect(leftovers(done.jobDir)).toEqual([]);
  });

  it("the same opId returns the same import job", async () => {
    const f = bigFile("twice.bin", 1);
    const a = await w.control({ op: "import", opId: "import-same-op", path: f });
    const b = await w.control({ op: "import", opId: "import-same-op", path: f });
    expect(b).toMatchObject({ ok: true, created: false, receipt: { jobId: a.receipt.jobId } });
    await waitForJob(w, a.receipt.jobId);
  });

  it("cancel stops a copy in progress, stores nothing and leaves no partial copy", async () => {
    const f = bigFile("cancel.bin", 40);
    const started = await startImport(f);
    const jobId = started.receipt.jobId;
    await waitForJob(w, jobId, (r) => r.state === "running");
    await waitForJob(w, jobId, () => fs.existsSync(path.join(started.receipt.jobDir, "work", "import.part")));
    const c = await w.control({ op: "cancel", jobId });
    expect(c.ok).toBe(true);
    const r = await waitForJob(w, jobId);
    expect(r).toMatchObject({ state: "cancelled", reason: "cancel_requested", outputSha256: null });
    expect((await progressLines(jobId)).at(-1)!.bytes).toBeLessThan(40 * MiB);
    expect(leftovers(r.jobDir)).toEqual([]);
    const sha = crypto.createHash("sha256").update(fs.readFileSync(f)).digest("hex");
    expect(fs.existsSync(path.join(w.home, "store", sha.slice(0, 2), sha))).toBe(false);
  });

  it("an import past its own deadline ends timed_out with no partial copy", async () => {
    const f = bigFile("deadline.bin", 40);
    const { receipt } = await importAndWait(w, f, { deadlineSeconds: 1 });
    expect(receipt).toMatchObject({ state: "timed_out", reason: "deadline", outputSha256: null });
    expect(leftovers(receipt!.jobDir)).toEqual([]);
  });

  it("a killed import supervisor ends the job interrupted and its partial copy is removed", async () => {
    const f = bigFile("killed.bin", 40);
    const started = await startImport(f);
    const jobId = started.receipt.jobId;
    const part = path.join(started.receipt.jobDir, "work", "import.part");
    const running = await waitForJob(w, jobId, (r) => r.state === "running" && r.supervisor !== null && fs.existsSync(part));
    process.kill(running.supervisor!.pid, "SIGKILL");
    await waitForJob(w, jobId, () => !pidAlive(running.supervisor!.pid));
    const r = await waitForJob(w, jobId);
    expect(r).toMatchObject({ state: "failed", reason: "interrupted" });
    expect(fs.existsSync(part)).toBe(false);
  });
});
