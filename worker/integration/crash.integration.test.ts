// Crash safety with real processes: the supervisor outlives its parent, a killed
// supervisor never leaves a job `running` forever, cancel leaves no process of the
// group, and a corrupt receipt is kept for repair instead of being overwritten.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixtureEnv, groupPids, makeHome, pidAlive, submitJob, waitFor, waitForJob, type WorkerHome } from "../testing/harness";

let w: WorkerHome;
beforeAll(async () => {
  await fixtureEnv();
  w = await makeHome({ capacity: { cpus: 1, ramGb: 8 }, defaultGraceSeconds: 1 });
}, 180_000);
afterAll(() => w?.cleanup());

const ledger = () => JSON.parse(fs.readFileSync(path.join(w.home, "ledger.json"), "utf8")).reservations as Record<string, unknown>;
const readStart = (pid: number) => {
  const t = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  return Number(t.slice(t.lastIndexOf(")") + 2).split(" ")[19]);
};
const runLines = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, "utf8").trim().split("\n") : []);

describe("crash safety", () => {
  it("kill -9 of the controller-like parent while a job runs: the job finishes, once", async () => {
    const env = await fixtureEnv();
    const runLog = path.join(w.home, "parent-kill.runlog");
    const req = JSON.stringify({
      protocol: 2, op: "submit", opId: "parent-kill", intentHash: "x", recipe: "wk", job: "sleepy", environmentId: env,
      input: { seconds: 2, runLog }, resources: { cpus: 1, ramGb: 0.1 }, deadlineSeconds: 60,
    });
    // A stand-in controller: runs `control submit` as its child, prints the answer, then idles.
    const script = `const {spawn}=require("child_process");const c=spawn(process.execPath,[${JSON.stringify(w.entry)},"control","--home",${JSON.stringify(w.home)}]);c.stdout.pipe(process.stdout);c.stdin.end(${JSON.stringify(req)});setInterval(()=>{},1000);`;
    const parent = spawn(process.execPath, ["-e", script], { detached: true, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    parent.stdout!.on("data", (c) => (out += c));
    const submitted = await waitFor("submit answer", () => (out.includes("\n") ? JSON.parse(out) : null), 30_000);
    const jobId = submitted.receipt.jobId as string;
    await waitForJob(w, jobId, (r) => r.state === "running");
    process.kill(-parent.pid!, "SIGKILL"); // the whole controller process group
    await waitFor("parent gone", () => !pidAlive(parent.pid!));
    const r = await waitForJob(w, jobId);
    expect(r.state).toBe("succeeded");
    const lines = runLines(runLog);
    expect(lines.filter((l) => l.startsWith("start")).length).toBe(1);
    expect(lines.filter((l) => l.startsWith("end")).length).toBe(1);
  });

  it("kill -9 of the supervisor: unknown while the recipe runs (slot kept), failed/interrupted once it is gone", async () => {
    const s = await submitJob(w, "sleepy", { seconds: 2.5 });
    const jobId = s.receipt.jobId;
    const running = await waitForJob(w, jobId, (r) => r.state === "running" && r.recipeProcess !== null);
    const pgid = running.recipeProcess!.pid;
    process.kill(running.supervisor!.pid, "SIGKILL");
    await waitFor("supervisor gone", () => !pidAlive(running.supervisor!.pid));
    const unknown = await waitForJob(w, jobId, (r) => r.state !== "running");
    expect(unknown).toMatchObject({ state: "unknown", reason: "supervisor_gone" });
    expect(groupPids(pgid).length).toBeGreaterThan(0);
    expect(ledger()[jobId]).toBeDefined(); // its processes still run: reservation kept

    // The only CPU slot is still held: a new job must wait.
    const next = await submitJob(w, "quick");
    expect(next.receipt.state).toBe("queued");

    await waitFor("recipe group gone", () => groupPids(pgid).length === 0, 30_000);
    const failed = await waitForJob(w, jobId);
    expect(failed).toMatchObject({ state: "failed", reason: "interrupted" });
    expect(ledger()[jobId]).toBeUndefined();
    expect((await waitForJob(w, next.receipt.jobId)).state).toBe("succeeded");
  });

  it.each([
    ["a reused pid (same pid, other start time)", (s: { pid: number; startTime: number; bootId: string }) => ({ ...s, pid: process.pid })],
    ["a reboot (other boot id)", (s: { pid: number; startTime: number; bootId: string }) => ({ ...s, pid: process.pid, startTime: readStart(process.pid), bootId: "another-boot" })],
  ])("a live process after %s is never mistaken for the job's supervisor", async (_what, forge) => {
    const s = await submitJob(w, "sleepy", { seconds: 30 });
    const running = await waitForJob(w, s.receipt.jobId, (r) => r.state === "running" && r.recipeProcess !== null);
    process.kill(running.supervisor!.pid, "SIGKILL");
    process.kill(-running.recipeProcess!.pid, "SIGKILL");
    await waitFor("job processes gone", () => !pidAlive(running.supervisor!.pid) && groupPids(running.recipeProcess!.pid).length === 0);
    // Forge the receipt so its supervisor pid names a live, unrelated process (this test).
    const file = path.join(w.home, "receipts", `${s.receipt.jobId}.json`);
    const rec = JSON.parse(fs.readFileSync(file, "utf8"));
    fs.writeFileSync(file, JSON.stringify({ ...rec, supervisor: forge(rec.supervisor) }));
    const r = await waitForJob(w, s.receipt.jobId);
    expect(r).toMatchObject({ state: "failed", reason: "interrupted" });
    expect(ledger()[s.receipt.jobId]).toBeUndefined();
  });

  it("cancel of a job whose supervisor was killed still stops its whole group", async () => {
    const s = await submitJob(w, "stubborn");
    const running = await waitForJob(w, s.receipt.jobId, (r) => r.state === "running" && r.recipeProcess !== null);
    const pgid = running.recipeProcess!.pid;
    await waitFor("children started", () => groupPids(pgid).length >= 3);
    process.kill(running.supervisor!.pid, "SIGKILL");
    await waitFor("supervisor gone", () => !pidAlive(running.supervisor!.pid));
    const c = await w.control({ op: "cancel", jobId: s.receipt.jobId });
    expect(c.receipt.cancelRequestedAt).not.toBeNull();
    const r = await waitForJob(w, s.receipt.jobId);
    expect(r.state).toBe("cancelled");
    expect(groupPids(pgid)).toEqual([]);
  });

  it("cancel leaves no process of the group (children that ignore SIGTERM)", async () => {
    const s = await submitJob(w, "stubborn");
    const running = await waitForJob(w, s.receipt.jobId, (r) => r.state === "running" && r.recipeProcess !== null);
    const pgid = running.recipeProcess!.pid;
    await waitFor("children started", () => groupPids(pgid).length >= 3);
    const c1 = await w.control({ op: "cancel", jobId: s.receipt.jobId });
    expect(c1.ok).toBe(true);
    const c2 = await w.control({ op: "cancel", jobId: s.receipt.jobId }); // idempotent
    expect(c2.receipt.cancelRequestedAt).toBe(c1.receipt.cancelRequestedAt);
    const r = await waitForJob(w, s.receipt.jobId);
    expect(groupPids(pgid)).toEqual([]);
    expect(r).toMatchObject({ state: "cancelled", reason: "cancel_requested" });
    expect(r.signal).toBe("SIGKILL"); // it ignored SIGTERM, so the grace period ended in SIGKILL
    const again = await w.control({ op: "cancel", jobId: s.receipt.jobId });
    expect(again.receipt.state).toBe("cancelled");
  });

  it("a recipe process killed from outside fails with a detail naming the signal (the page's out-of-memory hint)", async () => {
    const s = await submitJob(w, "sleepy", { seconds: 30 });
    const running = await waitForJob(w, s.receipt.jobId, (r) => r.state === "running" && r.recipeProcess !== null);
    process.kill(running.recipeProcess!.pid, "SIGKILL");
    const r = await waitForJob(w, s.receipt.jobId);
    expect(r).toMatchObject({ state: "failed", reason: "exit_code", signal: "SIGKILL", detail: "the process was stopped by SIGKILL" });
  });

  it("a queued job cancels at once", async () => {
    const blocker = await submitJob(w, "sleepy", { seconds: 30 });
    const queued = await submitJob(w, "quick");
    expect(queued.receipt.state).toBe("queued");
    const c = await w.control({ op: "cancel", jobId: queued.receipt.jobId });
    expect(c.receipt).toMatchObject({ state: "cancelled", startedAt: null });
    await w.control({ op: "cancel", jobId: blocker.receipt.jobId });
    expect((await waitForJob(w, blocker.receipt.jobId)).state).toBe("cancelled");
  });

  it("a corrupt receipt is preserved, reported and never overwritten", async () => {
    const s = await submitJob(w, "quick");
    await waitForJob(w, s.receipt.jobId);
    const file = path.join(w.home, "receipts", `${s.receipt.jobId}.json`);
    fs.writeFileSync(file, "{ half a receipt");
    const r = await w.control({ op: "inspect", jobId: s.receipt.jobId });
    expect(r.error.code).toBe("receipt_corrupt");
    const kept = fs.readdirSync(path.join(w.home, "receipts")).filter((f) => f.startsWith(`${s.receipt.jobId}.json.corrupt-`));
    expect(kept).toHaveLength(1);
    expect(fs.readFileSync(path.join(w.home, "receipts", kept[0]!), "utf8")).toBe("{ half a receipt");
    expect((await w.control({ op: "inspect", jobId: s.receipt.jobId })).error.code).toBe("receipt_corrupt");
    expect(fs.existsSync(file)).toBe(false);
    const list = await w.control({ op: "list" });
    expect(list.ok).toBe(true);
    expect(list.problems).toEqual([expect.objectContaining({ kind: "receipt_corrupt", jobId: s.receipt.jobId })]);
    const probe = await w.control({ op: "probe" });
    expect(probe.problems.map((p: { jobId: string }) => p.jobId)).toContain(s.receipt.jobId);
  });
});

describe("a deleted worker home", () => {
  it("stops the jobs that ran in it: the supervisor ends the group and exits, writing no file back", async () => {
    const gone = await makeHome({ capacity: { cpus: 1, ramGb: 8 }, defaultGraceSeconds: 1 });
    const s = await submitJob(gone, "sleepy", { seconds: 300 });
    const running = await waitForJob(gone, s.receipt.jobId, (r) => r.state === "running" && r.recipeProcess !== null);
    fs.rmSync(gone.home, { recursive: true, force: true });
    await waitFor("the job's group and its supervisor gone", () => groupPids(running.recipeProcess!.pid).length === 0 && !pidAlive(running.supervisor!.pid), 30_000);
    // No file is written back into the deleted home (empty folders a dying process makes may be).
    const left = (d: string): string[] => (fs.existsSync(d) ? fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? left(path.join(d, e.name)) : [path.join(d, e.name)])) : []);
    expect(left(gone.home)).toEqual([]);
    gone.cleanup();
  });
});
