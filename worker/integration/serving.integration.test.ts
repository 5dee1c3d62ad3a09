// Resident serving through the real worker (issue 16): a `serve-tabular` job on a real
// penguins export listens on servingSocketPath(home, jobId) and answers the controller's
// client there, directly, over a duplex stream, and through a real loopback sshd with ssh2's
// stream-local forwarding (no TCP port of the serving process); kill -9 of the serving process ends the job where the controller can see it;
// cancel (stop) leaves no process of its group; a memory budget it exceeds stops it.
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { Client } from "ssh2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SERVE_JOB, SERVE_RECIPE, servingSocketPath, type ServeJobInput } from "../../contracts/deployments/serving";
import { ServingClient } from "../../server/deployments/serving-client";
import { startSshd, type TestSshd } from "../../server/testing/sshd-harness";
import { REPO, groupPids, importAndWait, makeHome, waitFor, waitForJob, type Json, type WorkerHome } from "../testing/harness";

const PENGUINS = path.join(REPO, "tests", "fixtures", "tabular", "penguins.csv");
const ROW = { island: "Biscoe", bill_length_mm: 45.1, bill_depth_mm: 14.5, flipper_length_mm: 215, body_mass_g: 5000, sex: "female", year: 2008 };
let w: WorkerHome;
let sshd: TestSshd | null = null;
let exportRef = "";
let counter = 0;
const envIds = new Map<string, string>();

async function environment(recipe: string): Promise<string> {
  const known = envIds.get(recipe);
  if (known) return known;
  const res = await w.control({ op: "prepare", opId: `serving-prep-${recipe}-${process.pid}`, recipe });
  if (!res.ok) throw new Error(`prepare ${recipe}: ${JSON.stringify(res.error)}`);
  if (!res.ready) expect((await waitForJob(w, res.jobId, undefined, 600_000)).state).toBe("succeeded");
  envIds.set(recipe, res.environmentId);
  return res.environmentId;
}

async function submit(recipe: string, job: string, input: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<Json> {
  const opId = `serving-${recipe}-${job}-${process.pid}-${++counter}`;
  const res = await w.control({ op: "submit", opId, intentHash: opId, recipe, job, environmentId: await environment(recipe), input, resources: { cpus: 1, ramGb: 1 }, deadlineSeconds: 600, ...extra });
  expect(res.ok, JSON.stringify(res.error)).toBe(true);
  return res;
}

async function run(recipe: string, job: string, input: Record<string, unknown>): Promise<string> {
  const r = await waitForJob(w, (await submit(recipe, job, input)).receipt.jobId, undefined, 600_000);
  if (r.state !== "succeeded") {
    const log = await w.control({ op: "logs", jobId: r.jobId, offset: 0 });
    throw new Error(`${recipe}.${job} ended ${r.state} (${r.reason}): ${String(log.data).slice(-3000)}`);
  }
  return `sha256:${r.outputSha256}`;
}

/** The job's `serving` events so far. */
async function servingEvents(jobId: string): Promise<Array<{ state: string; socket: string }>> {
  const res = await w.control({ op: "logs", jobId, stream: "events", offset: 0 });
  return String(res.data)
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .filter((e) => e.type === "serving");
}

async function startServing(extra: Record<string, unknown> = {}): Promise<string> {
  const input: ServeJobInput = { release: `rel_${counter}`, export: exportRef, limits: { concurrency: 2, maxQueue: 4 } };
  const res = await submit(SERVE_RECIPE.tabular, SERVE_JOB, input, extra);
  return res.receipt.jobId as string;
}

async function ready(jobId: string) {
  return waitFor("serving ready", async () => {
    const r = await w.control({ op: "inspect", jobId });
    if (r.receipt.state !== "running" && r.receipt.state !== "admitted") throw new Error(`serving job ended ${r.receipt.state} (${r.receipt.reason}): ${r.receipt.detail}`);
    return (await servingEvents(jobId)).find((e) => e.state === "ready");
  }, 180_000, 250);
}

beforeAll(async () => {
  w = await makeHome({ trainingDir: path.join(REPO, "training"), allowedRoots: [path.dirname(PENGUINS)], capacity: { cpus: 2, ramGb: 8 }, defaultGraceSeconds: 5 });
  const { receipt } = await importAndWait(w, PENGUINS);
  const snapshot = receipt!.outputSha256!;
  const dataset = `sha256:${snapshot}`;
  const datasetFormat = { format: "csv", delimiter: ",", encoding: "utf-8", header: true };
  const split = await run("data", "split", { dataset, datasetFormat, snapshotSha256: snapshot, target: "species", task: "multiclass", strategy: "random", seed: 1 });
  const features = (partition: string) => run("data", "features", { dataset, datasetFormat, split, partition, target: "species" });
  const [train, test] = await Promise.all([features("train"), features("test")]);
  const model = await run("tabular", "train", { dataset, datasetFormat, split, target: "species", task: "multiclass", metric: "accuracy", timeLimitSeconds: 15, seed: 0 });
  const [predictions, baseline] = await Promise.all([run("tabular", "predict", { model, features: test }), run("evaluation", "baseline", { labels: train, features: test, task: "multiclass" })]);
  const sha = (ref: string) => ref.slice("sha256:".length);
  const score = (p: string, exported: string) =>
    run("evaluation", "score", { predictions: p, labels: test, task: "multiclass", metric: "accuracy", classes: ["Adelie", "Chinstrap", "Gentoo"], contract: { snapshotSha256: snapshot, splitSha256: sha(split), exportSha256: sha(exported) } });
  const [candidate, base] = await Promise.all([score(predictions, model), score(baseline, baseline)]);
  exportRef = await run("export", "package", { model, receipt: candidate, baselineReceipt: base });
}, 900_000);
afterAll(async () => {
  await sshd?.stop();
  w?.cleanup();
});

/** An SSH connection to the loopback sshd, as the controller holds one to a server. */
async function sshConnection(): Promise<Client> {
  sshd = await startSshd();
  const conn = new Client();
  await new Promise<void>((resolve, reject) => {
    conn.once("ready", resolve).once("error", reject);
    conn.connect({ host: sshd!.host, port: sshd!.port, username: sshd!.user, privateKey: fs.readFileSync(sshd!.clientKeyPath) });
  });
  return conn;
}

describe("resident serving through the worker", () => {
  it("answers on its socket directly and over a stream; kill -9 of the process ends the job where the controller sees it", async () => {
    const jobId = await startServing();
    const event = await ready(jobId);
    const socketPath = servingSocketPath(w.home, jobId);
    expect(event.socket).toBe(socketPath);
    expect(fs.statSync(socketPath).mode & 0o777).toBe(0o600);

    const direct = new ServingClient({ socketPath });
    const health = await direct.health();
    expect(health.ok && health.value.state).toBe("ready");
    const answer = await direct.predict({ rows: [ROW] });
    expect(answer.ok, JSON.stringify(answer)).toBe(true);
    if (answer.ok) expect(Object.keys(answer.value.predictions[0]!.probabilities!).sort()).toEqual(["Adelie", "Chinstrap", "Gentoo"]);
    const refused = await direct.predict({ rows: [{ ...ROW, bill_length_mm: "long" }] });
    expect(refused).toMatchObject({ ok: false, status: 400, error: { code: "bad_input", fields: [{ path: "rows[0].bill_length_mm" }] } });

    const overStream = new ServingClient({ openStream: async () => net.connect(socketPath) });
    const again = await overStream.predict({ rows: [ROW] });
    expect(again.ok && answer.ok && again.value.predictions).toEqual(answer.ok && answer.value.predictions);
    const conn = await sshConnection();
    try {
      const overSsh = new ServingClient({
        openStream: () => new Promise((resolve, reject) => conn.openssh_forwardOutStreamLocal(socketPath, (err, channel) => (err ? reject(err) : resolve(channel)))),
      });
      const viaSsh = await overSsh.predict({ rows: [ROW] });
      expect(viaSsh.ok && answer.ok && viaSsh.value.predictions).toEqual(answer.ok && answer.value.predictions);
      expect((await overSsh.health()).ok).toBe(true);
    } finally {
      conn.end();
    }

    const running = (await w.control({ op: "inspect", jobId })).receipt;
    process.kill(running.recipeProcess.pid, "SIGKILL");
    const ended = await waitForJob(w, jobId, undefined, 60_000);
    expect(ended).toMatchObject({ state: "failed", reason: "exit_code", signal: "SIGKILL" });
    expect(fs.existsSync(path.dirname(socketPath))).toBe(false);
    await expect(direct.health({ timeoutMs: 5000 })).rejects.toThrow(/ServingUnreachable|ENOENT|ECONNREFUSED/);
  }, 240_000);

  it("stop (cancel) ends the serving process group before the job is cancelled", async () => {
    const jobId = await startServing();
    await ready(jobId);
    const pgid = (await w.control({ op: "inspect", jobId })).receipt.recipeProcess.pid as number;
    expect(groupPids(pgid).length).toBeGreaterThan(0);
    await w.control({ op: "cancel", jobId });
    const ended = await waitForJob(w, jobId, undefined, 60_000);
    expect(ended).toMatchObject({ state: "cancelled", reason: "cancel_requested" });
    expect(groupPids(pgid)).toEqual([]);
  }, 240_000);

  it("a process group over its memory budget is stopped and says why", async () => {
    const jobId = await startServing({ resources: { cpus: 1, ramGb: 0.05 } });
    const ended = await waitForJob(w, jobId, undefined, 120_000);
    expect(ended).toMatchObject({ state: "failed", reason: "out_of_memory" });
    expect(ended.detail).toMatch(/memory budget of 0.05 GiB exceeded/);
  }, 180_000);
});
