/**
 * A Slurm cluster as a training computer, against a real single-node Slurm started by the
 * test (slurmctld, slurmd and munged; server/testing/slurm-cluster.ts) and the real server,
 * worker and recipes: enrolment probes the cluster and runs a job on its node; penguins
 * trains there to a verified export with every recipe job a Slurm job; a training whose
 * jobs wait in Slurm's queue is cancelled and Slurm no longer lists them; a cluster whose
 * login node is reached over SSH (a real sshd on loopback, whose sessions get the cluster's
 * SLURM_CONF as a login node's profile would set it) trains there too; and a cluster whose
 * controller is down says so.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZReceipt, type TReceipt } from "@/contracts/worker";
import { runCli } from "@/server/testing/cli-process";
import { makeTestHome, REPO, startTestServer, TEST_ENVS_DIR, waitFor, type TestServer } from "@/server/testing/server-harness";
import { startSshd, type TestSshd } from "@/server/testing/sshd-harness";
import { startSlurmCluster, type SlurmCluster } from "@/server/testing/slurm-cluster";
import type { ExperimentJson } from "@/server/cli/train/result-json";

const PENGUINS = path.join(REPO, "tests/fixtures/tabular/penguins.csv");

function receiptsIn(workerHome: string): TReceipt[] {
  const dir = path.join(workerHome, "receipts");
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .map((f) => ZReceipt.parse(JSON.parse(readFileSync(path.join(dir, f), "utf8"))));
}


describe("a Slurm cluster as a training computer", { timeout: 600_000 }, () => {
  const home = makeTestHome();
  let cluster: SlurmCluster;
  let server: TestServer;
  let workerHome: string;
  let sshd: TestSshd;
  const sshSide = mkdtempSync(path.join(os.tmpdir(), "trainyard-login-"));
  const sshConfig = path.join(sshSide, "ssh_config");
  /** Where the login node reached over SSH gets its worker (on the shared file system: this machine's). */
  const remoteDir = path.join(sshSide, "trainyard");
  const serverEnv = () => ({ TRAINYARD_TRAINING_DIR: path.join(REPO, "training"), SLURM_CONF: cluster.conf, TRAINYARD_SSH_CONFIG: sshConfig });

  beforeAll(async () => {
    cluster = await startSlurmCluster();
    sshd = await startSshd({ setEnv: { SLURM_CONF: cluster.conf } });
    writeFileSync(path.join(sshSide, "known_hosts"), `${sshd.knownHostsLine()}\n`);
    writeFileSync(path.join(sshSide, "empty_known_hosts"), "");
    const host = (alias: string, knownHosts: string) => [`Host ${alias}`, `  HostName ${sshd.host}`, `  Port ${sshd.port}`, `  User ${sshd.user}`, `  IdentityFile ${sshd.clientKeyPath}`, `  UserKnownHostsFile ${path.join(sshSide, knownHosts)}`];
    writeFileSync(sshConfig, [...host("login1", "known_hosts"), ...host("stranger", "empty_known_hosts"), ""].join("\n"));
    // The login node's worker keeps its recipe environments where This computer's are: nothing is built twice.
    mkdirSync(path.join(remoteDir, "home"), { recursive: true });
    writeFileSync(path.join(remoteDir, "home", "config.json"), JSON.stringify({ envsDir: TEST_ENVS_DIR }));
    server = await startTestServer({ home, env: serverEnv() });
  }, 300_000);
  afterAll(async () => {
    await server?.stop();
    await sshd?.stop();
    await cluster?.stop();
    rmSync(sshSide, { recursive: true, force: true });
  });

  it("enrols with computers add --slurm: the probe reports Slurm's version, the partition and a job on its node that reached the worker home", async () => {
    const bad = await runCli(server.url, ["computers", "add", "bad", "--slurm", "--partition", "debug;rm -rf /", "--json"]).done;
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain("letters, digits and _ . + - only");
    // "any" is what --computer any means: no computer may take the name.
    const any = await runCli(server.url, ["computers", "add", "Any", "--slurm", "--partition", "debug", "--json"]).done;
    expect(any.code).toBe(1);
    expect((JSON.parse(any.stdout) as { error: { message: string } }).error.message).toContain("--computer any already means any computer that fits");

    const added = await runCli(server.url, ["computers", "add", "cluster", "--slurm", "--partition", cluster.partition, "--json"]).done;
    expect(added.code, added.stderr).toBe(0);
    const t = JSON.parse(added.stdout) as { id: string; kind: string; probe: { problems: unknown[]; slurm: { version: string; controllerUp: boolean; partitions: { name: string; state: string; cpusPerNode: number }[]; sharedHome: { visible: boolean; node: string } } } };
    expect(t.kind).toBe("slurm");
    expect(t.probe.slurm).toMatchObject({ version: "22.05.8", controllerUp: true, sharedHome: { visible: true, node: cluster.node } });
    expect(t.probe.slurm.partitions).toContainEqual(expect.objectContaining({ name: "debug", state: "up" }));
    expect(t.probe.problems).toEqual([]);
    workerHome = path.join(home.home, "computers", "cluster");
    expect(existsSync(path.join(workerHome, "config.json"))).toBe(true);

    const again = await runCli(server.url, ["computers", "add", "cluster", "--slurm", "--partition", cluster.partition, "--json"]).done;
    expect(again.code).toBe(1);
    expect((JSON.parse(again.stdout) as { error: { message: string } }).error.message).toBe('A training computer named "cluster" already exists.');
    const list = await runCli(server.url, ["computers", "list", "--json"]).done;
    expect((JSON.parse(list.stdout) as { name: string; kind: string }[]).map((x) => [x.name, x.kind])).toEqual(expect.arrayContaining([["cluster", "slurm"], ["This computer", "local"]]));
  });

  it("trains penguins on the cluster to a verified export, each recipe job a Slurm job that completed", async () => {
    const out = path.join(home.scratch, "out");
    const run = await runCli(server.url, ["train", "--data", PENGUINS, "--target", "species", "--computer", "cluster", "--models", "GBM", "--max-minutes", "8", "--out", out, "--json"]).done;
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as ExperimentJson;
    expect(result).toMatchObject({ status: "succeeded", exportVerified: true });
    expect(existsSync(result.exportPath!)).toBe(true);

    const runs = receiptsIn(workerHome).filter((r) => r.kind === "run");
    expect(runs.length).toBeGreaterThan(3);
    for (const r of runs) {
      expect(r.state, `${r.recipe}.${r.job}: ${r.detail}`).toBe("succeeded");
      expect(r.slurm?.partition).toBe("debug");
      expect(r.launch).toBe("cold");
    }
    // slurmctld writes a completion record just after the job ends.
    const completed = (r: TReceipt) => new RegExp(`^JobId=${r.slurm!.jobId} .*JobState=COMPLETED`, "m").test(cluster.completions());
    await waitFor("Slurm's completion records", () => runs.every(completed), 30_000);
  });

  it("runs a search's round of trials as one Slurm job array, two at a time (--array=0-3%2), each trial booked against the search's budget", async () => {
    const before = new Set(receiptsIn(workerHome).map((r) => r.jobId));
    const run = await runCli(server.url, ["train", "--data", PENGUINS, "--target", "species", "--computer", "cluster", "--mode", "improve", "--max-trials", "4", "--parallel-trials", "2", "--max-minutes", "8", "--trial-minutes", "2", "--json"]).done;
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as { status: string; searchId: string; validation: number };
    expect(result).toMatchObject({ status: "completed" });
    expect(result.validation).toBeGreaterThan(0.9);

    const s = await server.client.searches.get.query({ id: result.searchId });
    expect(s.trials.map((t) => t.status)).toEqual(["succeeded", "succeeded", "succeeded", "succeeded"]);
    // One round of four, planned together (the planner saw the others as running) and each booked on its own.
    for (const t of s.trials) {
      expect(t.proposer).toMatchObject({ kind: "planner", round: { first: 1, size: 4 } });
      expect(t.reservedSeconds).toBeGreaterThan(0);
    }
    const trains = receiptsIn(workerHome).filter((r) => !before.has(r.jobId) && r.recipe === "tabular" && r.job === "train");
    expect(trains).toHaveLength(4);
    const arrayId = trains[0]!.slurm!.jobId.split("_")[0]!;
    expect(trains.map((r) => r.slurm!.jobId).sort()).toEqual([0, 1, 2, 3].map((i) => `${arrayId}_${i}`));
    for (const r of trains) {
      expect(r.state, r.detail ?? "").toBe("succeeded");
      expect(r.slurm!.array).toBe("0-3%2");
    }
    // Slurm ran every task (its completion records name the array and the task) ...
    const completed = (i: number) => new RegExp(`JobState=COMPLETED .*ArrayJobId=${arrayId} ArrayTaskId=${i} `, "m").test(cluster.completions());
    await waitFor("Slurm's completion records of the array's tasks", () => [0, 1, 2, 3].every(completed), 30_000);
    // ... two at a time: trainings overlapped, never three at once.
    const spans = trains.map((r) => ({ from: Date.parse(r.startedAt!), to: Date.parse(r.endedAt!) }));
    const overlapping = (t: { from: number; to: number }) => spans.filter((o) => o !== t && o.from < t.to && t.from < o.to);
    expect(spans.some((t) => overlapping(t).length > 0)).toBe(true);
    for (const t of spans) {
      const others = overlapping(t);
      expect(others.every((a) => others.every((b) => a === b || !(a.from < b.to && b.from < a.to)))).toBe(true);
    }
    // Nothing of the search is left in Slurm's queue (a last job may still be completing).
    await waitFor("Slurm's queue empty", () => cluster.run("squeue", ["-h", "-o", "%i %T %j"]).trim() === "", 30_000);
  });

  it("a search stopped while its round is still being planned starts none of it: the round's booked trials end cancelled and no training reaches Slurm", async () => {
    const before = new Set(receiptsIn(workerHome).map((r) => r.jobId));
    const projectId = (await server.client.projects.list.query({})).find((p) => p.name === "Default")!.id;
    const earlier = new Set((await server.client.searches.list.query({ projectId })).map((x) => x.id));
    const cli = runCli(server.url, ["train", "--data", PENGUINS, "--target", "species", "--computer", "cluster", "--mode", "improve", "--max-trials", "4", "--parallel-trials", "2", "--max-minutes", "8", "--trial-minutes", "2", "--json"]);
    const booked = await waitFor(
      "the round's first trial booked",
      async () => {
        const mine = (await server.client.searches.list.query({ projectId })).find((x) => !earlier.has(x.id));
        const s = mine ? await server.client.searches.get.query({ id: mine.id }) : undefined;
        return s && s.trials.length > 0 ? s : undefined;
      },
      120_000,
      200,
    );
    // The planner's next jobs wait in Slurm's queue from now on: the round cannot be whole.
    cluster.run("scontrol", ["update", `PartitionName=${cluster.partition}`, "State=DOWN"]);
    try {
      const s = await waitFor("trials booked and held", async () => {
        const now = await server.client.searches.get.query({ id: booked.id });
        return now.trials.every((t) => t.status === "reserved") ? now : undefined;
      });
      expect(s.trials.length).toBeLessThan(4);
      await server.client.searches.stop.mutate({ id: s.id, revision: s.revision });
      await waitFor("the held trials cancelled", async () => (await server.client.searches.get.query({ id: s.id })).trials.every((t) => t.status === "cancelled"));
    } finally {
      cluster.run("scontrol", ["update", `PartitionName=${cluster.partition}`, "State=UP"]);
    }
    const done = await cli.done;
    expect(done.code, done.stderr).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({ searchId: booked.id, status: "completed" });
    const ended = await server.client.searches.get.query({ id: booked.id });
    expect(ended.reason).toBe("stopped by the user");
    for (const t of ended.trials) expect(t.reason).toBe("the search was stopped before its round of trials started");
    expect(receiptsIn(workerHome).filter((r) => !before.has(r.jobId) && r.recipe === "tabular" && r.job === "train")).toEqual([]);
  });

  it("cancels a training whose job waits in Slurm's queue: scancel removes it, and the job ends cancelled", async () => {
    cluster.run("scontrol", ["update", `PartitionName=${cluster.partition}`, "State=DOWN"]);
    try {
      const before = new Set(receiptsIn(workerHome).map((r) => r.jobId));
      const cli = runCli(server.url, ["train", "--data", PENGUINS, "--target", "species", "--computer", "cluster", "--max-minutes", "8", "--json"]);
      const waiting = await waitFor("a job waiting in Slurm", () => receiptsIn(workerHome).find((r) => !before.has(r.jobId) && r.slurm && r.state === "admitted"));
      expect(cluster.run("squeue", ["-h", "-j", waiting.slurm!.jobId, "-o", "%T"]).trim()).toBe("PENDING");
      const project = (await server.client.projects.list.query({})).find((p) => p.name === "Default")!;
      const exp = (await server.client.experiments.list.query({ projectId: project.id })).find((e) => e.status === "running" || e.status === "queued");
      await server.client.experiments.cancel.mutate({ id: exp!.id });
      const ended = await waitFor("the job cancelled", () => receiptsIn(workerHome).find((r) => r.jobId === waiting.jobId && r.state === "cancelled"));
      expect(ended.reason).toBe("cancel_requested");
      // Every job of the training is cancelled in Slurm too (the experiment's other step may still be on its way out).
      await waitFor("Slurm to list none of its jobs", () => cluster.run("squeue", ["-h", "-o", "%i"]).trim() === "", 30_000);
      expect(cluster.run("squeue", ["-h", "-o", "%i"]).trim()).toBe("");
      const done = await cli.done;
      expect((JSON.parse(done.stdout) as ExperimentJson).status).toBe("cancelled");
    } finally {
      cluster.run("scontrol", ["update", `PartitionName=${cluster.partition}`, "State=UP"]);
    }
  });

  it("a server killed (kill -9) while its job waits, then runs, in Slurm: after a restart the training finishes and no job ran twice", async () => {
    cluster.run("scontrol", ["update", `PartitionName=${cluster.partition}`, "State=DOWN"]);
    const before = new Set(receiptsIn(workerHome).map((r) => r.jobId));
    const cli = runCli(server.url, ["train", "--data", PENGUINS, "--target", "species", "--computer", "cluster", "--models", "GBM", "--max-minutes", "8", "--json"]);
    const waiting = await waitFor("a job waiting in Slurm", () => receiptsIn(workerHome).find((r) => !before.has(r.jobId) && r.slurm && r.state === "admitted"));
    const project = (await server.client.projects.list.query({})).find((p) => p.name === "Default")!;
    const exp = (await server.client.experiments.list.query({ projectId: project.id })).find((e) => e.status === "running" || e.status === "queued")!;
    cli.child.kill("SIGKILL");
    await server.kill9();
    // With no server, Slurm starts the job and its supervisor on the node finishes it.
    cluster.run("scontrol", ["update", `PartitionName=${cluster.partition}`, "State=UP"]);
    await waitFor("the waiting job to end while the server is down", () => receiptsIn(workerHome).find((r) => r.jobId === waiting.jobId && r.state === "succeeded"));
    server = await startTestServer({ home, env: serverEnv() });
    let status = "";
    for (const end = Date.now() + 300_000; Date.now() < end; await new Promise((r) => setTimeout(r, 500))) {
      status = (await server.client.experiments.get.query({ id: exp.id })).status;
      if (["succeeded", "failed", "cancelled", "timed_out"].includes(status)) break;
    }
    expect(status).toBe("succeeded");
    const mine = receiptsIn(workerHome).filter((r) => !before.has(r.jobId) && r.kind === "run");
    expect(mine.every((r) => r.state === "succeeded")).toBe(true);
    // One Slurm job per worker job, and one worker job per step: nothing was submitted twice.
    const submitted = cluster.completions().match(/Name=trainyard-j\S+/g) ?? [];
    expect(new Set(submitted).size).toBe(submitted.length);
    // A step submitted again after the restart would be a second job with the same intent.
    expect(mine.length).toBeGreaterThan(3);
    expect(new Set(mine.map((r) => r.intentHash)).size).toBe(mine.length);
  });

  it("a running job that Slurm stops and does not start again (scancel outside Trainyard) ends failed, saying so", async () => {
    const before = new Set(receiptsIn(workerHome).map((r) => r.jobId));
    const cli = runCli(server.url, ["train", "--data", PENGUINS, "--target", "species", "--computer", "cluster", "--max-minutes", "8", "--json"]);
    const training = await waitFor("the training job running in Slurm", () => receiptsIn(workerHome).find((r) => !before.has(r.jobId) && r.recipe === "tabular" && r.job === "train" && r.state === "running" && r.recipeProcess), 240_000);
    // Every job is sent with --requeue: it is Slurm that decides whether a stopped job starts again.
    expect(cluster.run("scontrol", ["show", "job", training.slurm!.jobId])).toMatch(/Requeue=1/);
    cluster.run("scancel", [training.slurm!.jobId]);
    const ended = await waitFor("the job to end", () => receiptsIn(workerHome).find((r) => r.jobId === training.jobId && r.state !== "running"), 120_000);
    expect(ended).toMatchObject({ state: "failed", reason: "interrupted", slurmAttempts: [{ slurmJobId: training.slurm!.jobId, reason: "preempted" }] });
    expect(ended.detail).toBe(`Slurm stopped Slurm job ${training.slurm!.jobId} (SIGTERM) and did not start it again: it was cancelled in Slurm, reached its time limit, or was preempted on a partition that does not requeue`);
    const done = await cli.done;
    const result = JSON.parse(done.stdout) as ExperimentJson;
    expect(result.status).toBe("failed");
  });

  it("enrols a cluster whose login node is reached over SSH (--ssh): its worker is installed there and sends each job to Slurm; penguins trains there; an unknown host key is refused and leaves nothing", async () => {
    const stranger = await runCli(server.url, ["computers", "add", "stranger", "--slurm", "--partition", cluster.partition, "--ssh", "stranger", "--json"]).done;
    expect(stranger.code).toBe(1);
    expect((JSON.parse(stranger.stdout) as { error: { message: string } }).error.message).toContain("connect once with `ssh stranger`");

    const added = await runCli(server.url, ["computers", "add", "far", "--slurm", "--partition", cluster.partition, "--ssh", "login1", "--worker-home", remoteDir, "--json"]).done;
    expect(added.code, added.stderr + added.stdout).toBe(0);
    const far = JSON.parse(added.stdout) as { id: string; kind: string; probe: { slurm: { controllerUp: boolean; partition: string; sharedHome: { visible: boolean; node: string } } } };
    expect(far.kind).toBe("ssh");
    expect(far.probe.slurm).toMatchObject({ controllerUp: true, partition: cluster.partition, sharedHome: { visible: true, node: cluster.node } });
    const names = () => runCli(server.url, ["computers", "list", "--json"]).done.then((r) => (JSON.parse(r.stdout) as { name: string }[]).map((x) => x.name));
    expect(await names()).toContain("far");
    expect(await names()).not.toContain("stranger");

    const run = await runCli(server.url, ["train", "--data", PENGUINS, "--target", "species", "--computer", "far", "--models", "GBM", "--max-minutes", "8", "--json"]).done;
    expect(run.code, run.stdout).toBe(0);
    expect(JSON.parse(run.stdout) as ExperimentJson).toMatchObject({ status: "succeeded", exportVerified: true });
    // Each recipe job ran in Slurm, sent by the worker on the login node (its receipts are in its own home).
    const jobs = receiptsIn(path.join(remoteDir, "home")).filter((r) => r.kind === "run");
    expect(jobs.length).toBeGreaterThan(3);
    for (const r of jobs) expect(r).toMatchObject({ state: "succeeded", slurm: { partition: cluster.partition } });
    // Slurm records a job's completion once its batch script has exited, a moment after the receipt.
    await waitFor("Slurm to record each job completed", () => jobs.every((r) => cluster.completions().includes(`Name=trainyard-${r.jobId}`)), 30_000);

    // Removed, it leaves the other cluster as it was (the next tests train there).
    expect((await runCli(server.url, ["computers", "remove", "far"]).done).code).toBe(0);
    expect(await names()).not.toContain("far");
  });

  /** Starts a training from the CLI with these extra arguments, reads its experiment once it has one, and cancels it. */
  async function startedThenCancelled(args: string[]) {
    const project = (await server.client.projects.list.query({})).find((p) => p.name === "Default")!;
    const before = new Set((await server.client.experiments.list.query({ projectId: project.id })).map((e) => e.id));
    const cli = runCli(server.url, ["train", "--data", PENGUINS, "--target", "species", "--max-minutes", "8", "--json", ...args]);
    let id: string | undefined;
    for (const end = Date.now() + 120_000; !id && Date.now() < end; await new Promise((r) => setTimeout(r, 250))) {
      id = (await server.client.experiments.list.query({ projectId: project.id })).find((e) => !before.has(e.id))?.id;
    }
    expect(id, cli.stderr()).toBeDefined();
    await server.client.experiments.cancel.mutate({ id: id! });
    const done = await cli.done;
    return JSON.parse(done.stdout) as ExperimentJson;
  }

  it("--computer any takes the cluster while its partition has idle CPUs, and This computer once it is full, saying why", async () => {
    const idle = await startedThenCancelled(["--computer", "any"]);
    expect(idle.placement).toMatchObject({ chosen: "cluster", why: expect.stringMatching(/^cluster: partition debug has \d+ of \d+ CPUs idle and 0 jobs waiting\./) });

    // The partition full: its node takes no more jobs (drained: every CPU unavailable, deterministically, where
    // jobs holding the CPUs could end or be requeued meanwhile), and one job waits.
    cluster.run("scontrol", ["update", `NodeName=${cluster.node}`, "State=DRAIN", "Reason=the test fills the partition"]);
    const waiting = cluster.run("sbatch", ["--parsable", "--cpus-per-task=1", "--mem=100M", "--output=/dev/null", "--wrap", "sleep 600"]).trim();
    try {
      await waitFor("the partition full", () => cluster.run("squeue", ["-h", "-t", "PENDING", "-o", "%i"]).trim() === waiting && cluster.run("sinfo", ["-h", "-o", "%C"]).trim().split("/")[1] === "0");
      const full = await startedThenCancelled(["--computer", "any"]);
      expect(full.placement!.chosen).toBe("This computer");
      expect(full.placement!.why).toMatch(/^This computer: \d+ of \d+ CPUs free\. Not chosen: cluster: partition debug has 0 of \d+ CPUs idle and 1 job waiting\.$/);
      expect(full.placement!.considered).toContainEqual({ name: "cluster", fits: false, freeCpus: 0, waiting: 1, why: expect.any(String) });
    } finally {
      cluster.run("scancel", [waiting]);
      cluster.run("scontrol", ["update", `NodeName=${cluster.node}`, "State=RESUME"]);
    }
    // A computer named outright is not "placed".
    const named = await startedThenCancelled(["--computer", "cluster"]);
    expect(named.placement).toBeNull();
  });

  it("says plainly when Slurm's controller does not answer, and a training waits for it instead of failing", async () => {
    const { id } = (await server.client.targets.list.query()).find((t) => t.name === "cluster")!;
    await cluster.stopController();
    let cli: ReturnType<typeof runCli> | null = null;
    try {
      const probed = await server.client.targets.probe.mutate({ id });
      expect(probed.probe!.slurm).toMatchObject({ controllerUp: false });
      expect(probed.probe!.problems.map((p) => p.message)).toContainEqual(expect.stringMatching(/^Slurm's controller does not answer: .*Unable to contact slurm controller/));

      const before = new Set(receiptsIn(workerHome).map((r) => r.jobId));
      cli = runCli(server.url, ["train", "--data", PENGUINS, "--target", "species", "--computer", "cluster", "--max-minutes", "8", "--json"]);
      const held = await waitFor("a job held while Slurm is down", () => receiptsIn(workerHome).find((r) => !before.has(r.jobId) && r.state === "queued" && r.queuedReason?.startsWith("Slurm's controller does not answer"))).catch((err: Error) => {
        throw new Error(`${err.message}; the CLI said: ${cli!.stderr()}; new receipts: ${JSON.stringify(receiptsIn(workerHome).filter((r) => !before.has(r.jobId)).map((r) => [r.recipe, r.job, r.state, r.queuedReason, r.detail]))}`);
      });
      expect(held.slurm).toBeNull();
      await cluster.startController();
      // Once it answers, the same job goes to Slurm, and nothing of the training failed because Slurm was away.
      const newJobs = () => receiptsIn(workerHome).filter((r) => !before.has(r.jobId));
      await waitFor("the held job handed to Slurm", () => receiptsIn(workerHome).find((r) => r.jobId === held.jobId && r.slurm !== null), 180_000).catch((err: Error) => {
        throw new Error(`${err.message}; its jobs: ${JSON.stringify(newJobs().map((r) => [r.recipe, r.job, r.state, r.reason, r.queuedReason, r.detail, r.slurmRetry]))}; sinfo: ${cluster.run("sinfo", [])}`);
      });
      expect(newJobs().filter((r) => r.state === "failed").map((r) => r.detail)).toEqual([]);
    } finally {
      await cluster.startController();
      const project = (await server.client.projects.list.query({})).find((p) => p.name === "Default")!;
      for (const e of await server.client.experiments.list.query({ projectId: project.id })) {
        if (e.status === "running") await server.client.experiments.cancel.mutate({ id: e.id });
      }
      await cli?.done;
    }
  });
});
