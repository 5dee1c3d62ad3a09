// Warm start (docs/dev/warm-start.md) with real processes: a recipe with a preload list
// starts its first job cold while its runner starts (or, by default, waits for that runner
// and is forked from it), and later jobs fork from the runner;
// a forked job is a job as before (own session and group, its cwd, argv, environment,
// stdio to its log, thread caps), cancel stops its whole group, a killed runner neither
// kills nor loses a running job, a rebuilt environment gets a fresh runner, and a runner
// that cannot be warm (a preload that starts a thread) leaves its jobs cold.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TReceipt } from "../../contracts/worker/receipt";
import { envDir } from "../src/recipes";
import { runnerFiles } from "../src/warm/runner-files";
import { loadConfig } from "../src/config";
import { groupPids, makeHome, pidAlive, recipeEnvironment, submitRecipeJob, TEST_ENVS_DIR, waitFor, waitForJob, type Json, type WorkerHome } from "../testing/harness";

let w: WorkerHome;
async function start(recipe: string, job: string, input: Record<string, unknown> = {}, cpus = 1, home = w): Promise<string> {
  const res = await submitRecipeJob(home, recipe, job, input, { cpus, ramGb: 0.5, deadlineSeconds: 120 });
  expect(res.ok, JSON.stringify(res.error)).toBe(true);
  return res.receipt.jobId as string;
}

async function log(jobId: string, home = w): Promise<string> {
  const res = await home.control({ op: "logs", jobId, offset: 0 });
  return String(res.data ?? "");
}

async function output(r: TReceipt, file: string): Promise<Json> {
  const fetched = await w.control({ op: "fetch", jobId: r.jobId, path: file });
  expect(fetched.ok, JSON.stringify(fetched.error)).toBe(true);
  return JSON.parse(fs.readFileSync(fetched.path, "utf8"));
}

async function run(recipe: string, job: string, input: Record<string, unknown> = {}, cpus = 1, home = w): Promise<TReceipt> {
  const r = await waitForJob(home, await start(recipe, job, input, cpus, home), undefined, 120_000);
  expect(r.state, `${recipe}.${job}: ${r.reason} ${r.detail}\n${await log(r.jobId, home)}`).toBe("succeeded");
  return r;
}

async function files(recipe: string, preload: string[], home = w) {
  return runnerFiles(loadConfig(home.home), { recipe, environmentId: await recipeEnvironment(home, recipe), preload });
}

/** The runner's pid once it listens (the job that found none started it). */
async function runnerListening(recipe: string, preload: string[]): Promise<number> {
  const f = await files(recipe, preload);
  await waitFor(`the ${recipe} warm runner to listen`, () => fs.existsSync(f.socket), 60_000);
  return (JSON.parse(fs.readFileSync(f.pidFile, "utf8")) as { pid: number }).pid;
}

const LITE = ["json", "decimal"];

beforeAll(async () => {
  // startWaitSeconds 0: the first job of each recipe starts cold at once, a cold job to compare the forked ones with.
  w = await makeHome({ capacity: { cpus: 2, ramGb: 4 }, warm: { enabled: true, idleSeconds: 60, startWaitSeconds: 0 } });
});
afterAll(() => w?.cleanup());

describe("warm start", () => {
  it("the first job starts cold and starts the runner; the next is forked from it and is the same job in every way a recipe can see", async () => {
    const first = await run("wkwarmlite", "whoami");
    expect(first.launch).toBe("cold");
    expect(await log(first.jobId)).toContain("started cold (a fresh Python process): no warm runner for wkwarmlite");
    const runner = await runnerListening("wkwarmlite", LITE);

    const r = await run("wkwarmlite", "whoami");
    expect(r.launch).toBe("warm");
    const text = await log(r.jobId);
    expect(text).toContain("started warm: forked from the wkwarmlite runner");
    expect(text).toContain("to stderr too");
    const seen = await output(r, "whoami.json");
    const cold = await output(first, "whoami.json");
    // Its own session and group, led by the recorded leader (the runner's child), not the runner's.
    expect(seen.pgid).toBe(r.recipeProcess!.pid);
    expect(seen.sid).toBe(seen.pgid);
    expect(seen.ppid).toBe(r.recipeProcess!.pid);
    expect(seen.pgid).not.toBe(runner);
    expect(seen.cwd).toBe(path.join(r.jobDir, "work"));
    expect(seen.argv).toEqual(cold.argv.map((a: string) => a.replace(first.jobId, r.jobId)));
    expect(seen.jobId).toBe(r.jobId);
    expect(seen.omp).toBe("1");
    expect(seen.stdinIsDevNull).toBe(true);
    expect(seen.warmModules).toEqual(["decimal", "json"]);
  });

  it("the job's thread caps hold in a forked child (counted while BLAS works), as in a cold one", async () => {
    const cold = await run("wkwarm", "threads", {}, 2);
    expect(cold.launch).toBe("cold");
    await runnerListening("wkwarm", ["numpy", "threadpoolctl"]);
    for (const cpus of [1, 2]) {
      const r = await run("wkwarm", "threads", {}, cpus);
      expect(r.launch).toBe("warm");
      const seen = await output(r, "threads.json");
      expect(seen.cpus).toBe(cpus);
      for (const [api, n] of seen.pools as Array<[string, number]>) expect([api, n]).toEqual([api, cpus]);
      expect(seen.pools.length).toBeGreaterThan(0);
      // BLAS workers, the main thread and the test's watcher: never more.
      expect(seen.peakThreads).toBeLessThanOrEqual(cpus + 1);
    }
    expect((await output(cold, "threads.json")).pools).toEqual((await output(await run("wkwarm", "threads", {}, 2), "threads.json")).pools);
  });

  it("cancel stops a forked job's whole group", async () => {
    await runnerListening("wkwarmlite", LITE);
    const jobId = await start("wkwarmlite", "sleepy", { seconds: 120 });
    const running = await waitForJob(w, jobId, (r) => r.state === "running" && r.launch !== null, 30_000);
    expect(running.launch).toBe("warm");
    const child = Number((await waitFor("the child's pid in the log", async () => /child (\d+)/.exec(await log(jobId)), 30_000))[1]);
    expect(pidAlive(child)).toBe(true);
    await w.control({ op: "cancel", jobId });
    const r = await waitForJob(w, jobId, undefined, 30_000);
    expect(r).toMatchObject({ state: "cancelled", reason: "cancel_requested" });
    expect(pidAlive(child)).toBe(false);
    expect(groupPids(r.recipeProcess!.pid)).toEqual([]);
  });

  it("kill -9 of the runner mid-job neither kills nor loses the job; the next job starts cold and a new runner replaces it", async () => {
    const runner = await runnerListening("wkwarmlite", LITE);
    const jobId = await start("wkwarmlite", "sleepy", { seconds: 3 });
    await waitForJob(w, jobId, (r) => r.state === "running" && r.launch === "warm", 30_000);
    process.kill(runner, "SIGKILL");
    const r = await waitForJob(w, jobId, undefined, 60_000);
    expect(r).toMatchObject({ state: "succeeded", exitCode: 0, launch: "warm" });
    expect(await output(r, "slept.json")).toEqual({ seconds: 3 });
    // Its pages are shared with the runner: PSS counts its share, RSS all of them.
    expect(r.usage.peakPssBytes).toBeGreaterThan(0);
    expect(r.usage.peakPssBytes!).toBeLessThan(r.usage.peakRssBytes!);

    const next = await run("wkwarmlite", "whoami");
    expect(next.launch).toBe("cold");
    expect(await log(next.jobId)).toMatch(/started cold .*no warm runner for wkwarmlite was running/);
    const replacement = await runnerListening("wkwarmlite", LITE);
    expect(replacement).not.toBe(runner);
    expect((await run("wkwarmlite", "whoami")).launch).toBe("warm");
  });

  it("kill -9 of a job's leader (its status unrecorded): the job fails saying so, and nothing of its group is left", async () => {
    await runnerListening("wkwarmlite", LITE);
    const jobId = await start("wkwarmlite", "sleepy", { seconds: 120 });
    const running = await waitForJob(w, jobId, (r) => r.state === "running" && r.launch === "warm", 30_000);
    process.kill(running.recipeProcess!.pid, "SIGKILL");
    const r = await waitForJob(w, jobId, undefined, 30_000);
    expect(r).toMatchObject({ state: "failed", reason: "exit_code", signal: "SIGKILL" });
    expect(r.detail).toContain("the job's leader process was killed before it could record how the job ended");
    expect(groupPids(r.recipeProcess!.pid)).toEqual([]);
  });

  it("a job whose supervisor is killed mid-job is reconciled as any other: unknown while its group runs, interrupted once it is gone", async () => {
    await runnerListening("wkwarmlite", LITE);
    const jobId = await start("wkwarmlite", "sleepy", { seconds: 120 });
    const running = await waitForJob(w, jobId, (r) => r.state === "running" && r.launch === "warm", 30_000);
    process.kill(running.supervisor!.pid, "SIGKILL");
    await waitFor("the supervisor to be gone", () => !pidAlive(running.supervisor!.pid), 10_000);
    expect((await w.control({ op: "inspect", jobId })).receipt).toMatchObject({ state: "unknown", reason: "supervisor_gone" });
    await w.control({ op: "cancel", jobId });
    const r = await waitForJob(w, jobId, undefined, 30_000);
    expect(["cancelled", "failed"]).toContain(r.state);
    expect(groupPids(running.recipeProcess!.pid)).toEqual([]);
  });

  it("a rebuilt environment gets a fresh runner: the old one is never asked again", async () => {
    const old = await runnerListening("wkwarmlite", LITE);
    const before = (await files("wkwarmlite", LITE)).key;
    // build_env.py writes ready.json last: a rebuild leaves a new one.
    const ready = path.join(envDir(TEST_ENVS_DIR, await recipeEnvironment(w, "wkwarmlite")), "ready.json");
    const later = new Date(Date.now() + 5000);
    fs.utimesSync(ready, later, later);
    expect((await files("wkwarmlite", LITE)).key).not.toBe(before);
    const r = await run("wkwarmlite", "whoami");
    expect(r.launch).toBe("cold");
    const fresh = await runnerListening("wkwarmlite", LITE);
    expect(fresh).not.toBe(old);
    expect((await run("wkwarmlite", "whoami")).launch).toBe("warm");
  });

  it("a preload that starts a thread: the runner refuses to be warm, says why, and every job starts cold and succeeds", async () => {
    const first = await run("wkwarmbad", "whoami");
    expect(first.launch).toBe("cold");
    const f = await files("wkwarmbad", ["recipes.wkwarm.threaded_import"]);
    await waitFor("the runner to give up", () => fs.existsSync(f.failed), 60_000);
    expect(fs.existsSync(f.socket)).toBe(false);
    const r = await run("wkwarmbad", "whoami");
    expect(r.launch).toBe("cold");
    expect(await log(r.jobId)).toMatch(/started cold .*its warm runner could not start \(after importing recipes\.wkwarm\.threaded_import this process has 2 threads/);
  });

  it("the runner leaves when its home is removed", async () => {
    const runner = await runnerListening("wkwarmlite", LITE);
    fs.rmSync(path.join(w.home, "warm"), { recursive: true, force: true });
    await waitFor("the runner to exit", () => !pidAlive(runner), 10_000);
  });
});

describe("a job that finds its runner starting (the default: it waits for it)", () => {
  let home: WorkerHome;
  beforeAll(async () => {
    // A short wait, so that a runner stuck in its imports (wkwarmslow) is seen in seconds.
    home = await makeHome({ capacity: { cpus: 2, ramGb: 4 }, warm: { enabled: true, idleSeconds: 60, startWaitSeconds: 5 } });
  });
  afterAll(() => home?.cleanup());

  it("waits for the runner it starts and is forked from it, and so does a job started beside it: neither imports the libraries again in a fresh interpreter", async () => {
    const [first, second] = await Promise.all([start("wkwarmlite", "whoami", {}, 1, home), start("wkwarmlite", "whoami", {}, 1, home)]);
    const logs: string[] = [];
    for (const jobId of [first, second]) {
      const r = await waitForJob(home, jobId, undefined, 120_000);
      logs.push(await log(jobId, home));
      expect(r, logs.at(-1)).toMatchObject({ state: "succeeded", launch: "warm" });
      expect(logs.at(-1)).toContain("started warm: forked from the wkwarmlite runner (json, decimal already imported)");
    }
    // The first found none and waited for the one it started (the second may have come once it listened).
    expect(logs.join("\n")).toMatch(/already imported\) after waiting \d+\.\d s for it to start/);
  });

  it("a runner that cannot become warm: the waiting job starts cold as soon as the runner says why, not after the whole wait", async () => {
    const started = Date.now();
    const r = await run("wkwarmbad", "whoami", {}, 1, home);
    expect(r.launch).toBe("cold");
    expect(await log(r.jobId, home)).toMatch(/started cold .*its warm runner could not start \(after importing recipes\.wkwarm\.threaded_import this process has 2 threads/);
    expect(Date.now() - started).toBeLessThan(45_000);
  });

  it("a runner stuck in its imports: the first job waits its 5 s and starts cold, the next starts cold at once, both saying why", async () => {
    const timed = async () => {
      const t0 = Date.now();
      const r = await run("wkwarmslow", "whoami", {}, 1, home);
      return { r, ms: Date.now() - t0, text: await log(r.jobId, home) };
    };
    const first = await timed();
    const second = await timed();
    for (const { r, text } of [first, second]) {
      expect(r.launch).toBe("cold");
      expect(text).toMatch(/started cold \(a fresh Python process\): the warm runner for wkwarmslow has not listened within 5 s of its start/);
    }
    expect(first.ms).toBeGreaterThanOrEqual(5_000);
    // The wait counts from the runner's start: the second job does not wait another 5 s.
    expect(second.ms).toBeLessThan(first.ms - 2_000);
  });
});
