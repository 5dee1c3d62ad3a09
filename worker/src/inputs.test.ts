// `checkpoints:<jobId>` input refs: resolved to the ended job's checkpoints dir (frozen
// read-only), refused with missing_input otherwise, and kept from gc while the resuming
// job is active. Real receipts and files in a throw-away worker home.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { TReceipt } from "../../contracts/worker/receipt";
import type { JobState } from "../../contracts/worker/states";
import { loadConfig, type WorkerConfig } from "./config";
import { WorkerError } from "./errors";
import { Home } from "./home";
import { resolveInput, unindexOutput } from "./inputs";
import { createJob } from "./ops/createjob";
import { gc } from "./ops/gc";
import { updateReceipt } from "./receipts";

let dir: string;
let cfg: WorkerConfig;
let home: Home;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "trainyard-inputs-"));
  cfg = loadConfig(dir);
  home = new Home(cfg);
  home.ensure();
});
function writable(p: string): void {
  const st = fs.lstatSync(p);
  if (!st.isDirectory()) return;
  fs.chmodSync(p, 0o700); // frozen checkpoint dirs are 0555: their entries cannot be removed otherwise
  for (const name of fs.readdirSync(p)) writable(path.join(p, name));
}
afterEach(() => {
  writable(dir);
  fs.rmSync(dir, { recursive: true, force: true });
});

let n = 0;
function jobIn(state: JobState, extra: Partial<TReceipt> = {}): TReceipt {
  const r = createJob({ cfg, home }, {
    opId: `op-${++n}`, intentHash: `i-${n}`, kind: "run", recipe: "wk", job: "ckpt", environmentId: "e".repeat(64),
    priority: 0, resources: { cpus: 1, ramGb: 0 }, deadlineSeconds: 60, graceSeconds: 1, input: {}, inputRefs: [],
  });
  return updateReceipt(home, r.jobId, (x) => ({ ...x, state, endedAt: new Date(Date.now() - 30 * 86_400_000).toISOString(), ...extra }));
}

function saveCheckpoint(jobId: string): string {
  const ckpt = path.join(home.jobDir(jobId), "checkpoints", "checkpoint-3");
  fs.mkdirSync(ckpt, { recursive: true });
  fs.writeFileSync(path.join(ckpt, "state.json"), '{"step": 3}');
  return path.dirname(ckpt);
}

function missingInput(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(WorkerError);
    expect((err as WorkerError).code).toBe("missing_input");
    return (err as Error).message;
  }
  throw new Error("expected missing_input");
}

describe("checkpoints:<jobId> refs", () => {
  it("resolve to a cancelled job's checkpoints dir, recorded as a ref, and made read-only", () => {
    const old = jobIn("cancelled");
    const dirPath = saveCheckpoint(old.jobId);
    const { resolved, refs } = resolveInput(home, { resumeFrom: `checkpoints:${old.jobId}`, other: "checkpoint-3" });
    expect(resolved).toEqual({ resumeFrom: dirPath, other: "checkpoint-3" });
    expect(refs).toEqual([`checkpoints:${old.jobId}`]);
    expect(fs.statSync(path.join(dirPath, "checkpoint-3", "state.json")).mode & 0o222).toBe(0);
    expect(fs.statSync(dirPath).mode & 0o222).toBe(0);
  });

  it("resolve for failed and timed-out jobs too", () => {
    for (const state of ["failed", "timed_out"] as const) {
      const old = jobIn(state);
      saveCheckpoint(old.jobId);
      expect(resolveInput(home, { r: `checkpoints:${old.jobId}` }).refs).toEqual([`checkpoints:${old.jobId}`]);
    }
  });

  it("are refused for a succeeded, a running or an unknown job, saying why", () => {
    const done = jobIn("succeeded");
    saveCheckpoint(done.jobId);
    expect(missingInput(() => resolveInput(home, { r: `checkpoints:${done.jobId}` }))).toMatch(/succeeded: there is nothing to resume/);
    for (const state of ["running", "unknown"] as const) {
      const live = jobIn(state);
      saveCheckpoint(live.jobId);
      expect(missingInput(() => resolveInput(home, { r: `checkpoints:${live.jobId}` }))).toContain(`is ${state}: resume only from a job that has ended`);
    }
  });

  it("are refused for a stopped job that saved no checkpoint", () => {
    const old = jobIn("cancelled");
    expect(missingInput(() => resolveInput(home, { r: `checkpoints:${old.jobId}` }))).toContain("ended cancelled without saving a checkpoint");
    fs.mkdirSync(path.join(home.jobDir(old.jobId), "checkpoints"));
    expect(missingInput(() => resolveInput(home, { r: `checkpoints:${old.jobId}` }))).toContain("without saving a checkpoint");
  });

  it("refuse path tricks and unknown ids without touching the file system outside the home", () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), "trainyard-outside-"));
    fs.mkdirSync(path.join(outside, "checkpoints", "x"), { recursive: true });
    try {
      for (const bad of [`checkpoints:../../${path.basename(outside)}`, "checkpoints:", "checkpoints:j20260101000000-zzzzzzzzzz", `checkpoints:${outside}`]) {
        expect(missingInput(() => resolveInput(home, { r: bad }))).toContain("does not name a job id of this worker");
      }
      expect(missingInput(() => resolveInput(home, { r: "checkpoints:j20260101000000-0123456789" }))).toContain("no job j20260101000000-0123456789 on this worker");
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it("list every problem of one input at once, hashes and checkpoints", () => {
    const msg = missingInput(() => resolveInput(home, { a: `sha256:${"1".repeat(64)}`, b: "checkpoints:j20260101000000-0123456789" }));
    expect(msg).toContain("1 hash(es) this worker does not hold: 111111111111");
    expect(msg).toContain("cannot resume: no job j20260101000000-0123456789");
  });

  it("keep the old attempt's job dir from gc while the resuming job is active, and free it after", () => {
    const old = jobIn("cancelled");
    const ckptDir = saveCheckpoint(old.jobId);
    const { refs } = resolveInput(home, { r: `checkpoints:${old.jobId}` });
    const resuming = jobIn("running", { inputRefs: refs, endedAt: null });
    const first = gc({ cfg, home }, { protocol: 2, op: "gc", olderThanDays: 7, includeStore: false, dryRun: false });
    expect(first.jobs).not.toContain(old.jobId);
    expect(fs.existsSync(path.join(ckptDir, "checkpoint-3", "state.json"))).toBe(true);

    updateReceipt(home, resuming.jobId, (x) => ({ ...x, state: "failed", endedAt: new Date().toISOString() }));
    const second = gc({ cfg, home }, { protocol: 2, op: "gc", olderThanDays: 7, includeStore: false, dryRun: false });
    expect(second.jobs).toContain(old.jobId);
    expect(fs.existsSync(home.jobDir(old.jobId))).toBe(false);
    expect(missingInput(() => resolveInput(home, { r: `checkpoints:${old.jobId}` }))).toContain("removed by gc");
  });
});

describe("identical outputs of two jobs (one hash)", () => {
  const sha = "c".repeat(64);
  function outputOf(r: TReceipt): string {
    const out = path.join(home.jobDir(r.jobId), "output");
    fs.mkdirSync(out, { recursive: true });
    updateReceipt(home, r.jobId, (x) => ({ ...x, outputSha256: sha }));
    return out;
  }
  const index = (jobId: string, outputDir: string) => {
    fs.mkdirSync(path.dirname(home.outputIndex(sha)), { recursive: true });
    fs.writeFileSync(home.outputIndex(sha), JSON.stringify({ jobId, outputDir }));
  };

  it("gc of one job's folder keeps the index that names the other, which still resolves", () => {
    const a = jobIn("succeeded");
    const b = jobIn("succeeded", { endedAt: new Date().toISOString() });
    outputOf(a);
    const bOut = outputOf(b);
    index(b.jobId, bOut);
    const swept = gc({ cfg, home }, { protocol: 2, op: "gc", olderThanDays: 7, includeStore: false, dryRun: false, jobIds: [a.jobId] });
    expect(swept.jobs).toEqual([a.jobId]);
    expect(resolveInput(home, { m: `sha256:${sha}` }).resolved).toEqual({ m: bOut });
    unindexOutput(home, sha, a.jobId);
    expect(fs.existsSync(home.outputIndex(sha))).toBe(true);
    unindexOutput(home, sha, b.jobId);
    expect(fs.existsSync(home.outputIndex(sha))).toBe(false);
  });
});
