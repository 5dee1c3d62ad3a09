/**
 * bench/serve: one-row prediction latency of a deployment (issue 16's Benchmark), all on the
 * same penguins model in one run, p50/p99 in ms:
 *   (a) the authenticated public route of a resident deployment (POST /api/deployments/:id/predict)
 *   (b) the serving socket directly (server/deployments/serving-client.ts)
 *   (c) the bare predict call inside a warm Python process (the floor: bench/serve_floor.py inline)
 *   (d) the authenticated public route of an on-demand deployment (a job per request)
 *   (e) a minimal standard-library Python HTTP server holding the same predictor
 *   (f) GET /api/deployments/:id/health of the resident deployment (key check, deployment and
 *       release reads, no predict): how much of (a) is the route itself
 * and requests/s through (a) at concurrency 8. Goals: (a) p50 <= 1.5x (e), and >= 50x faster than (d).
 *
 *   npx tsx bench/serve.ts            (N=200 one-row calls per path; BENCH_SERVE_N to change)
 *
 * Trains one quick penguins model through the CLI (real recipes, environments in .tmp/envs),
 * registers it, deploys it twice (resident, on demand) and makes a key for each.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { servingSocketPath, ZDeploymentHealth } from "@/contracts/deployments/serving";
import { ServingClient } from "@/server/deployments/serving-client";
import { runCli } from "@/server/testing/cli-process";
import { makeTestHome, REPO, startTestServer, TEST_ENVS_DIR, waitFor } from "@/server/testing/server-harness";

const N = Number(process.env.BENCH_SERVE_N ?? 200);
const ON_DEMAND_N = 5;
const CONCURRENCY = 8;
const RPS_SECONDS = 10;
const ROW = { island: "Biscoe", bill_length_mm: 45.1, bill_depth_mm: 14.5, flipper_length_mm: 215, body_mass_g: 5000, sex: "female", year: 2008 };

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;
const ms = (t: bigint) => Number(process.hrtime.bigint() - t) / 1e6;

async function timed(n: number, call: () => Promise<void>): Promise<number[]> {
  for (let i = 0; i < 3; i++) await call(); // warm-up: connections, caches
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    await call();
    out.push(ms(t));
  }
  return out;
}

async function cliJson(url: string, args: string[]): Promise<Record<string, unknown>> {
  const r = await runCli(url, [...args, "--json"]).done;
  if (r.code !== 0) throw new Error(`trainyard ${args.join(" ")}: ${r.stderr}`);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

function postRow(url: string, key: string | null): () => Promise<void> {
  const headers: Record<string, string> = { "content-type": "application/json", ...(key ? { authorization: `Bearer ${key}` } : {}) };
  const body = JSON.stringify({ rows: [ROW] });
  return async () => {
    const r = await fetch(url, { method: "POST", headers, body });
    const text = await r.text();
    if (r.status !== 200) throw new Error(`${url} answered ${r.status}: ${text}`);
  };
}

/** Starts bench/serve_floor.py with the serving process's own Python and training dir. */
function floor(python: string, args: string[]): ChildProcess {
  return spawn(python, [path.join(REPO, "bench", "serve_floor.py"), ...args], { env: { ...process.env, PYTHONPATH: path.join(REPO, "training") }, stdio: ["ignore", "pipe", "inherit"] });
}

function firstJsonLine(child: ChildProcess): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.setEncoding("utf8").on("data", (d: string) => {
      out += d;
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (line && out.includes("\n")) resolve(JSON.parse(line) as Record<string, unknown>);
    });
    child.once("exit", (code) => reject(new Error(`serve_floor.py exited ${code}`)));
  });
}

async function throughput(call: () => Promise<void>): Promise<number> {
  let done = 0;
  const end = Date.now() + RPS_SECONDS * 1000;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (Date.now() < end) {
      await call();
      done += 1;
    }
  }));
  return done / RPS_SECONDS;
}

/**
 * The resident route with a monitor watching vs the same monitor paused, in alternating
 * blocks (so load and warm-up fall on both alike): latency over N calls each, then
 * requests/s over RPS_SECONDS each.
 */
async function monitoringCost(server: Awaited<ReturnType<typeof startTestServer>>, deployment: string, call: () => Promise<void>) {
  const { id } = (await cliJson(server.url, ["monitors", "create", deployment])) as { id: string };
  await waitFor("the monitor's reference", async () => {
    const m = await server.client.monitors.show.query({ monitorId: id });
    if (m.state === "failed") throw new Error(`monitor failed: ${m.reason}`);
    return m.state === "watching" ? true : undefined;
  }, 300_000, 500);
  const set = async (state: "watching" | "paused") => {
    if ((await server.client.monitors.show.query({ monitorId: id })).state !== state) await (state === "paused" ? server.client.monitors.pause : server.client.monitors.resume).mutate({ monitorId: id });
  };
  const watching: number[] = [];
  const paused: number[] = [];
  for (let block = 0; block < 4; block++) {
    await set(block % 2 ? "paused" : "watching");
    (block % 2 ? paused : watching).push(...(await timed(Math.ceil(N / 2), call)));
  }
  // Requests/s in alternating blocks too: one 10 s block each swung ±10 % between runs on 2 CPUs.
  const rps = { watching: [] as number[], paused: [] as number[] };
  for (let block = 0; block < 4; block++) {
    const state = block % 2 ? "paused" : "watching";
    await set(state);
    rps[state].push(await throughput(call));
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const [rpsWatching, rpsPaused] = [mean(rps.watching), mean(rps.paused)];
  const windows = (await server.client.monitors.show.query({ monitorId: id })).windows.filter((w) => w.verdict).length;
  return { watching, paused, rpsWatching, rpsPaused, windows };
}

async function main() {
  const home = makeTestHome();
  const server = await startTestServer({ home, env: { TRAINYARD_TRAINING_DIR: path.join(REPO, "training") } });
  const children: ChildProcess[] = [];
  try {
    const trained = await runCli(server.url, ["train", "--data", path.join(REPO, "tests/fixtures/tabular/penguins.csv"), "--target", "species", "--max-minutes", "2", "--out", home.scratch, "--json"]).done;
    if (trained.code !== 0) throw new Error(trained.stderr);
    const experimentId = (JSON.parse(trained.stdout) as { experimentId: string }).experimentId;
    await server.client.models.register.mutate({ experimentId, newModelName: "Bench penguins" });
    type Made = { name: string; urls: { predict: string; health: string } };
    const resident = (await cliJson(server.url, ["deploy", "Bench penguins:1", "--mode", "resident", "--name", "bench-resident"])) as unknown as Made;
    const onDemand = (await cliJson(server.url, ["deploy", "Bench penguins:1", "--mode", "on-demand", "--name", "bench-on-demand"])) as unknown as Made;
    const key = async (name: string) => (await cliJson(server.url, ["deployments", "keys", "create", name])).key as string;
    const [residentKey, onDemandKey] = [await key(resident.name), await key(onDemand.name)];
    await waitFor("the resident release to load", async () => {
      const h = ZDeploymentHealth.parse(await (await fetch(resident.urls.health, { headers: { authorization: `Bearer ${residentKey}` } })).json());
      if (h.state === "failed") throw new Error(`resident deployment failed: ${h.reason}`);
      return h.state === "ready" ? true : undefined;
    }, 300_000, 500);

    // The resident serving job: its socket, its Python and the release folder it loaded.
    const job = (await server.client.jobs.list.query({ limit: 100 })).find((j) => j.recipe === "serve-tabular" && j.state === "running")!;
    const receipt = JSON.parse(readFileSync(path.join(home.workerHome, "receipts", `${job.workerJobId}.json`), "utf8")) as { environmentId: string };
    const python = path.join(TEST_ENVS_DIR, receipt.environmentId, "venv", "bin", "python");
    const releaseDir = path.join(home.workerHome, "jobs", job.workerJobId!, "work", "release");

    const results: Array<[string, number[]]> = [];
    results.push(["(a) public route, resident (key, HTTP, controller -> socket)", await timed(N, postRow(resident.urls.predict, residentKey))]);
    results.push(["(f) public route GET health, resident (no predict)", await timed(N, async () => {
      const r = await fetch(resident.urls.health, { headers: { authorization: `Bearer ${residentKey}` } });
      await r.text();
      if (r.status !== 200) throw new Error(`health answered ${r.status}`);
    })]);
    const socket = new ServingClient({ socketPath: servingSocketPath(home.workerHome, job.workerJobId!) });
    results.push(["(b) serving socket directly (serving-client)", await timed(N, async () => {
      const r = await socket.predict({ rows: [ROW] });
      if (!r.ok) throw new Error(JSON.stringify(r));
    })]);
    const inline = floor(python, ["inline", releaseDir, JSON.stringify(ROW), String(N + 3)]);
    children.push(inline);
    results.push(["(c) bare predict in a warm Python process", ((await firstJsonLine(inline)).ms as number[]).slice(3)]);
    const plain = floor(python, ["http", releaseDir]);
    children.push(plain);
    const port = (await firstJsonLine(plain)).port as number;
    const minimal = `http://127.0.0.1:${port}/predict`;
    results.push(["(e) minimal stdlib Python HTTP server", await timed(N, postRow(minimal, null))]);
    results.push([`(d) public route, on demand (a job per request; n=${ON_DEMAND_N})`, await timed(ON_DEMAND_N, postRow(onDemand.urls.predict, onDemandKey))]);
    const rpsResident = await throughput(postRow(resident.urls.predict, residentKey));
    const rpsMinimal = await throughput(postRow(minimal, null));
    const monitoring = await monitoringCost(server, resident.name, postRow(resident.urls.predict, residentKey));

    const load = os.loadavg().map((l) => l.toFixed(1)).join(" ");
    console.log(`\nbench/serve: one-row predict, penguins, N=${N} (on demand ${ON_DEMAND_N}), ${os.cpus().length} CPUs, load average ${load}\n`);
    console.log("| path | p50 ms | p99 ms |\n|---|---|---|");
    for (const [what, xs] of results) console.log(`| ${what} | ${pct(xs, 50).toFixed(2)} | ${pct(xs, 99).toFixed(2)} |`);
    console.log(`\nrequests/s at concurrency ${CONCURRENCY} over ${RPS_SECONDS} s: public route (resident) ${rpsResident.toFixed(1)}, minimal Python server ${rpsMinimal.toFixed(1)}`);
    const p50 = (label: string) => pct(results.find(([w]) => w.startsWith(label))![1], 50);
    console.log(`resident route p50 / minimal server p50 = ${(p50("(a)") / p50("(e)")).toFixed(2)} (goal <= 1.5)`);
    console.log(`on-demand p50 / resident route p50 = ${(p50("(d)") / p50("(a)")).toFixed(0)} (goal >= 50)`);
    const { watching, paused, rpsWatching, rpsPaused, windows } = monitoring;
    console.log(`\nmonitoring (${windows} windows judged): resident route p50 ${pct(watching, 50).toFixed(2)} ms watched vs ${pct(paused, 50).toFixed(2)} ms paused (ratio ${(pct(watching, 50) / pct(paused, 50)).toFixed(3)}); p99 ${pct(watching, 99).toFixed(2)} vs ${pct(paused, 99).toFixed(2)} ms`);
    console.log(`monitoring: requests/s ${rpsWatching.toFixed(1)} watched vs ${rpsPaused.toFixed(1)} paused (ratio ${(rpsWatching / rpsPaused).toFixed(3)}; goal >= 0.95)`);
  } finally {
    for (const c of children) c.kill("SIGTERM");
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
