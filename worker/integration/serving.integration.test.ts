// Resident serving through the real worker (issue 16): a `serve-tabular` job on a real
// penguins export listens on servingSocketPath(home, jobId) and answers the controller's
// client there, directly, over a duplex stream, and through a real loopback sshd with ssh2's
// stream-local forwarding (no TCP port of the serving process); kill -9 of the serving process ends the job where the controller can see it;
// cancel (stop) leaves no process of its group; a memory budget it exceeds stops it.
// A `serve-llm` job on a real tiny-GPT-2 LoRA export answers /generate and /stream there
// (the deltas add up to the text, one terminal result) and stop leaves no process of it.
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { Client } from "ssh2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SERVE_JOB, SERVE_RECIPE, servingSocketPath, type ServeJobInput, type ServeStreamEvent } from "../../contracts/deployments/serving";
import { ServingClient } from "../../server/deployments/serving-client";
import { startSshd, type TestSshd } from "../../server/testing/sshd-harness";
import { REPO, groupPids, importAndWait, makeHome, waitFor, waitForJob, type Json, type WorkerHome } from "../testing/harness";

const PENGUINS = path.join(REPO, "tests", "fixtures", "tabular", "penguins.csv");
const TINY_GPT2 = path.join(REPO, "tests", "fixtures", "models", "lm-buddy-fake-gpt2");
const LORA_DATA = path.join(REPO, "training", "recipes", "llm_lora", "tests", "fixtures", "gsm8k-prompt-completion.jsonl");
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

function trySubmit(recipe: string, job: string, input: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<Json> {
  const opId = `serving-${recipe}-${job}-${process.pid}-${++counter}`;
  return environment(recipe).then((environmentId) =>
    w.control({ op: "submit", opId, intentHash: opId, recipe, job, environmentId, input, resources: { cpus: 1, ramGb: 1 }, deadlineSeconds: 600, ...extra }),
  );
}

async function submit(recipe: string, job: string, input: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<Json> {
  const res = await trySubmit(recipe, job, input, extra);
  expect(res.ok, JSON.stringify(res.error)).toBe(true);
  return res;
}

async function run(recipe: string, job: string, input: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<string> {
  const r = await waitForJob(w, (await submit(recipe, job, input, extra)).receipt.jobId, undefined, 600_000);
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
  w = await makeHome({ trainingDir: path.join(REPO, "training"), allowedRoots: [path.dirname(PENGUINS), TINY_GPT2, path.dirname(LORA_DATA)], capacity: { cpus: 2, ramGb: 8 }, defaultGraceSeconds: 5 });
});
afterAll(async () => {
  await sshd?.stop();
  w?.cleanup();
});

/** A real penguins export (the tabular chain through the worker): its output reference. */
async function penguinsExport(): Promise<string> {
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
  return run("export", "package", { model, receipt: candidate, baselineReceipt: base });
}

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
  beforeAll(async () => {
    exportRef = await penguinsExport();
  }, 900_000);

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

/** (export, import_base output) of a real 2-step LoRA of the tiny GPT-2, each job through the worker. */
async function tinyLoraExport(): Promise<{ exported: string; base: string }> {
  const lora = (job: string, input: Record<string, unknown>, recipe = "llm-lora") => run(recipe, job, input, { resources: { cpus: 2, ramGb: 3 } });
  const base = await lora("import_base", { source: TINY_GPT2, name: "tiny-gpt2" });
  const data = await lora("check_data", { model: base, data: LORA_DATA, evalFraction: 0.15, seed: 3, maxLength: 96 });
  const adapter = await lora("train", { model: base, data, device: "cpu", maxLength: 64, batchSize: 2, rank: 2, learningRate: 0.05, seed: 0, maxSteps: 2, evalEverySteps: 2, checkpointEverySteps: 100 });
  const receipt = await lora("score", { model: base, adapter, data, device: "cpu", maxLength: 64, generations: 0 }, "evaluation-lm");
  return { exported: await lora("export", { model: base, adapter, receipt, checks: data, name: "tiny" }), base };
}

describe("serve-llm through the worker", () => {
  let lora: { exported: string; base: string };
  beforeAll(async () => {
    lora = await tinyLoraExport();
  }, 600_000);

  it("refuses a serve input outside its contract at submit, with no job", async () => {
    const before = (await w.control({ op: "list" })).receipts.length;
    const res = await trySubmit(SERVE_RECIPE.llm, SERVE_JOB, { release: "rel_x", export: lora.exported, base: lora.base, device: "tpu", surprise: 1 });
    expect(res.ok).toBe(false);
    expect(res.error.code).toBe("invalid_input");
    expect((res.error.details.issues as { path: string[] }[]).map((i) => i.path.join(".")).sort()).toEqual(["", "device"]);
    expect((await w.control({ op: "list" })).receipts).toHaveLength(before);
  });

  it("answers /generate and /stream on its socket (deltas add up to the text, one result) and stop leaves no process", async () => {
    const input: ServeJobInput = { release: "rel_llm", export: lora.exported, base: lora.base, device: "cpu", limits: { concurrency: 1, maxQueue: 4 } };
    const jobId = (await submit(SERVE_RECIPE.llm, SERVE_JOB, input, { resources: { cpus: 1, ramGb: 3 } })).receipt.jobId as string;
    const event = await ready(jobId);
    const socketPath = servingSocketPath(w.home, jobId);
    expect(event.socket).toBe(socketPath);
    const client = new ServingClient({ socketPath });
    const health = await client.health();
    expect(health.ok && health.value).toMatchObject({ state: "ready", kind: "llm", release: "rel_llm" });

    const body = { prompt: "What is 2 + 3?", maxNewTokens: 8 };
    const generated = await client.generate(body);
    expect(generated.ok, JSON.stringify(generated)).toBe(true);
    if (!generated.ok) return;
    expect(generated.value).toMatchObject({ release: "rel_llm" });
    expect(generated.value.generatedTokens).toBeGreaterThan(0);
    expect(generated.value.generatedTokens).toBeLessThanOrEqual(8);

    const events: ServeStreamEvent[] = [];
    const streamed = await client.stream(body, (e) => events.push(e));
    expect(streamed.ok, JSON.stringify(streamed)).toBe(true);
    expect(events[0]).toMatchObject({ type: "metadata", release: "rel_llm" });
    const deltas = events.flatMap((e) => (e.type === "delta" ? [e.text] : []));
    expect(deltas.join("")).toBe(generated.value.text);
    const terminals = events.filter((e) => e.type === "result" || e.type === "error");
    expect(terminals).toEqual([{ type: "result", promptTokens: generated.value.promptTokens, generatedTokens: generated.value.generatedTokens, finishReason: generated.value.finishReason }]);
    expect(events.at(-1)).toEqual(terminals[0]);
    expect(streamed.ok && streamed.value.terminal).toEqual(terminals[0]);

    const wrongKind = await client.predict({ rows: [ROW] });
    expect(wrongKind).toMatchObject({ ok: false, status: 404, error: { code: "wrong_kind" } });

    const pgid = (await w.control({ op: "inspect", jobId })).receipt.recipeProcess.pid as number;
    await w.control({ op: "cancel", jobId });
    expect(await waitForJob(w, jobId, undefined, 60_000)).toMatchObject({ state: "cancelled", reason: "cancel_requested" });
    expect(groupPids(pgid)).toEqual([]);
    expect(fs.existsSync(path.dirname(socketPath))).toBe(false);
  }, 240_000);
});
