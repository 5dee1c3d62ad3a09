// prepare with the real training/tools/build_env.py into a throw-away envs dir: two
// concurrent prepares build once, a ready environment answers at once, and a failed
// build leaves nothing that looks like an environment.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILD_ENV_SCRIPT, makeHome, waitForJob, type WorkerHome } from "../testing/harness";

let w: WorkerHome;
let envs: string;
beforeAll(async () => {
  if (!fs.existsSync(BUILD_ENV_SCRIPT)) throw new Error(`${BUILD_ENV_SCRIPT} is missing: the prepare tests run the real environment builder`);
  envs = fs.mkdtempSync(path.join(os.tmpdir(), "trainyard-envs-"));
  w = await makeHome({ envsDir: envs, capacity: { cpus: 2, ramGb: 8 } });
});
afterAll(() => {
  w?.cleanup();
  fs.rmSync(envs, { recursive: true, force: true });
});

describe("prepare", () => {
  it("two concurrent prepares of one environment build it once", async () => {
    const [a, b] = await Promise.all([
      w.control({ op: "prepare", opId: "prep-a", recipe: "wk" }),
      w.control({ op: "prepare", opId: "prep-b", recipe: "wk" }),
    ]);
    expect(a.ok, JSON.stringify(a.error)).toBe(true);
    expect(b.ok, JSON.stringify(b.error)).toBe(true);
    expect(a.environmentId).toBe(b.environmentId);
    expect(a.jobId).toBe(b.jobId); // one job for one environment
    const r = await waitForJob(w, a.jobId, undefined, 120_000);
    expect(r).toMatchObject({ state: "succeeded", kind: "prepare" });
    const log = await w.control({ op: "logs", jobId: a.jobId, offset: 0 });
    expect(log.data.match(/building environment/g)).toHaveLength(1);
    const ready = JSON.parse(fs.readFileSync(path.join(envs, a.environmentId, "ready.json"), "utf8"));
    expect(ready).toMatchObject({ environmentId: a.environmentId, recipe: "wk" });
    const again = await w.control({ op: "prepare", opId: "prep-c", recipe: "wk" });
    expect(again).toMatchObject({ ok: true, ready: true, jobId: null, environmentId: a.environmentId });
    const probe = await w.control({ op: "probe" });
    expect(probe.environments.map((e: { environmentId: string }) => e.environmentId)).toContain(a.environmentId);
  });

  it("a failed build leaves no half-environment that looks valid", async () => {
    const p = await w.control({ op: "prepare", opId: "prep-bad", recipe: "wkbad" });
    expect(p.ok, JSON.stringify(p.error)).toBe(true);
    const r = await waitForJob(w, p.jobId, undefined, 120_000);
    expect(r).toMatchObject({ state: "failed", reason: "exit_code" });
    expect(fs.existsSync(path.join(envs, p.environmentId, "ready.json"))).toBe(false);
    const log = await w.control({ op: "logs", jobId: p.jobId, offset: 0 });
    expect(log.data).toMatch(/not pinned/);
    const submit = await w.control({
      op: "submit", opId: "run-bad", intentHash: "x", recipe: "wkbad", job: "noop", environmentId: p.environmentId,
      input: {}, resources: { cpus: 1, ramGb: 0.1 }, deadlineSeconds: 10,
    });
    expect(submit.error.code).toBe("environment_not_ready");
  });
});
