#!/usr/bin/env node
// GPU check for a machine with NVIDIA GPUs, using only Node and the built bundle
// (no node_modules): probe lists the GPUs, a `gpus: 1` job gets exactly one GPU in
// CUDA_VISIBLE_DEVICES, a second whole-GPU job waits while the GPUs are taken, more
// GPUs than exist is exceeds_capacity, and a shared-memory job fits beside nothing else.
//   node scripts/build-worker.mjs && node worker/testing/device-check.mjs
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const repo = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..", "..");
const bundle = path.join(repo, "dist", "worker", "trainyard-worker.mjs");
const home = fs.mkdtempSync(path.join(os.tmpdir(), "trainyard-gpu-check-"));
fs.writeFileSync(path.join(home, "config.json"), JSON.stringify({
  trainingDir: path.join(repo, "worker", "test-fixtures", "training"),
  buildEnvScript: path.join(repo, "training", "tools", "build_env.py"),
  minFreeDiskBytes: 0,
  defaultGraceSeconds: 2,
}));
const control = (req) => {
  const r = spawnSync(process.execPath, [bundle, "control", "--home", home], { input: JSON.stringify({ protocol: 2, ...req }), encoding: "utf8" });
  return JSON.parse(r.stdout);
};
const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
const wait = (jobId, pred, ms = 120_000) => {
  const end = Date.now() + ms;
  for (;;) {
    const r = control({ op: "inspect", jobId }).receipt;
    if (pred(r)) return r;
    if (Date.now() > end) throw new Error(`timeout: ${JSON.stringify(r)}`);
    sleep(200);
  }
};
let failures = 0;
const check = (name, ok, extra = "") => {
  console.log(`${ok ? "PASS" : "FAIL"} ${name}${extra ? ` — ${extra}` : ""}`);
  if (!ok) failures++;
};

const probe = control({ op: "probe" });
console.log("gpus:", JSON.stringify(probe.gpus), "problem:", probe.gpuProblem);
check("probe lists GPUs with UUID and memory", probe.gpus.length > 0 && probe.gpus.every((g) => g.uuid.startsWith("GPU-") && g.memoryTotalBytes > 0));
console.log("pythons:", JSON.stringify(probe.pythons.map((p) => [p.candidate, p.version, p.canCreateVenv, p.problem])));
if (!probe.gpus.length) {
  console.log("no GPUs here: nothing more to check");
  fs.rmSync(home, { recursive: true, force: true });
  process.exit(1);
}
const prep = control({ op: "prepare", opId: "gpu-prep", recipe: "wk" });
let env;
if (prep.ok) {
  if (!prep.ready) wait(prep.jobId, (r) => ["succeeded", "failed"].includes(r.state));
  env = control({ op: "prepare", opId: "gpu-prep-2", recipe: "wk" }).environmentId;
} else {
  // A Python that cannot make full venvs (no ensurepip): say so, then build the
  // empty-requirements fixture env by hand (--without-pip) so the GPU checks can run.
  console.log("prepare refused:", JSON.stringify(prep.error));
  const py = spawnSync("python3", ["-c", "import platform,sys;print(platform.python_version());print(sys.executable)"], { encoding: "utf8" }).stdout.trim().split("\n");
  env = crypto.createHash("sha256").update(`${py[0]}\n`).digest("hex");
  const dir = path.join(home, "envs", env);
  spawnSync(py[1], ["-m", "venv", "--without-pip", path.join(dir, "venv")], { stdio: "inherit" });
  fs.writeFileSync(path.join(dir, "ready.json"), JSON.stringify({ environmentId: env, recipe: "wk", pythonVersion: py[0] }));
}
const submit = (opId, job, resources, input = {}) => control({ op: "submit", opId, intentHash: opId, recipe: "wk", job, environmentId: env, input, resources, deadlineSeconds: 120 });

const one = submit("g1", "gpuinfo", { cpus: 1, ramGb: 1, gpus: 1 });
const r1 = wait(one.receipt.jobId, (r) => ["succeeded", "failed", "cancelled", "timed_out"].includes(r.state));
const seen = r1.state === "succeeded" ? JSON.parse(fs.readFileSync(control({ op: "fetch", jobId: r1.jobId, path: "env.json" }).path, "utf8")) : {};
check("gpus:1 job sees exactly its reserved GPU", r1.state === "succeeded" && seen.CUDA_VISIBLE_DEVICES === r1.reservation.gpuIds[0], JSON.stringify(seen));
check("reserved GPU is a real UUID", probe.gpus.some((g) => g.uuid === r1.reservation.gpuIds[0]));

const all = probe.gpus.length;
const holders = Array.from({ length: all }, (_, i) => submit(`hold-${i}`, "sleepy", { cpus: 0.1, ramGb: 0.1, gpus: 1 }, { seconds: 4 }));
const waiting = submit("gwait", "gpuinfo", { cpus: 0.1, ramGb: 0.1, gpus: 1 });
check("a whole-GPU job waits while every GPU is taken", waiting.receipt.state === "queued", waiting.receipt.queuedReason ?? "");
const share = submit("gshare", "gpuinfo", { cpus: 0.1, ramGb: 0.1, gpuMemoryGb: 1 });
check("a shared-memory job does not squeeze onto a GPU held whole", share.receipt.state === "queued");
for (const h of holders) wait(h.receipt.jobId, (r) => r.state === "succeeded");
check("the waiting job ran after a GPU freed", wait(waiting.receipt.jobId, (r) => r.state === "succeeded").state === "succeeded");
check("the shared job ran after", wait(share.receipt.jobId, (r) => r.state === "succeeded").state === "succeeded");
const tooMany = submit("gmany", "gpuinfo", { cpus: 1, ramGb: 1, gpus: all + 1 });
check("more GPUs than exist is exceeds_capacity", tooMany.error?.code === "exceeds_capacity", tooMany.error?.message);
fs.rmSync(home, { recursive: true, force: true });
console.log(failures ? `${failures} GPU check(s) FAILED` : "all GPU checks passed");
process.exitCode = failures ? 1 : 0;
