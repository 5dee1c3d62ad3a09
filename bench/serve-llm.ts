/**
 * bench/serve-llm: time to the first streamed token (TTFT) and tokens/s of an LLM deployment
 * (issue 16's Benchmark, LLM part), all on one LoRA fine-tune of the tiny GPT-2 in
 * tests/fixtures, the same prompt and token count, p50/p95:
 *   (a) POST /api/deployments/:id/stream, the authenticated public route (key check, SSE
 *       through the controller, which reads the serving process's own stream)
 *   (b) POST /stream on the serving socket directly (server/deployments/serving-client.ts)
 *   (c) generating in-process with the serving code (bench/serve_llm_floor.py): the floor
 * TTFT is the time from sending the request to the first `delta` event (whole characters);
 * tokens/s is generatedTokens / the whole stream's time. The tiny model's own compute is
 * small, so the gaps between (a), (b) and (c) are the serving path's overhead.
 *
 *   npx tsx bench/serve-llm.ts      (N=20 streams per path of 64 new tokens; BENCH_LLM_N, BENCH_LLM_TOKENS)
 *
 * Fine-tunes the tiny GPT-2 for 2 steps through the real server (environments in .tmp/envs),
 * registers it, deploys it resident and makes a key.
 */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { servingSocketPath, ZDeploymentHealth, type DeploymentStreamEvent } from "@/contracts/deployments/serving";
import { readStreamEvents } from "@/contracts/deployments/stream-events";
import { ServingClient } from "@/server/deployments/serving-client";
import { allowedModelFolder, hasEnded, SMALL, uploadExamples, waitForFineTune } from "@/server/finetune/finetune-test-support";
import { runCli } from "@/server/testing/cli-process";
import { makeTestHome, REPO, startTestServer, TEST_ENVS_DIR, waitFor } from "@/server/testing/server-harness";

const N = Number(process.env.BENCH_LLM_N ?? 20);
const TOKENS = Number(process.env.BENCH_LLM_TOKENS ?? 64);
const PROMPT = "Natalia sold clips to 48 of her friends in April, and then she sold half as many clips in May. How many clips did Natalia sell altogether?";

interface Run {
  ttftMs: number;
  totalMs: number;
  tokens: number;
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;
const since = (t: bigint) => Number(process.hrtime.bigint() - t) / 1e6;

async function runs(n: number, one: () => Promise<Run>): Promise<Run[]> {
  for (let i = 0; i < 2; i++) await one(); // warm-up: connections, caches
  const out: Run[] = [];
  for (let i = 0; i < n; i++) out.push(await one());
  return out;
}

/** One stream through the public route: SSE blocks read as they arrive, parsed by the contract. */
async function publicStream(url: string, key: string): Promise<Run> {
  const t = process.hrtime.bigint();
  const res = await fetch(url, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify({ prompt: PROMPT, maxNewTokens: TOKENS }) });
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${await res.text()}`);
  // Assigned in the callback, which TypeScript's flow analysis does not follow.
  let ttftMs = null as number | null;
  let terminal = null as DeploymentStreamEvent | null;
  await readStreamEvents(res.body!, (e) => {
    if (e.type === "delta" && ttftMs === null) ttftMs = since(t);
    if (e.type === "result" || e.type === "error") terminal = e;
  });
  if (terminal?.type !== "result") throw new Error(`the stream ended without a result: ${JSON.stringify(terminal)}`);
  const totalMs = since(t);
  return { ttftMs: ttftMs ?? totalMs, totalMs, tokens: terminal.generatedTokens };
}

async function socketStream(client: ServingClient): Promise<Run> {
  const t = process.hrtime.bigint();
  let ttftMs: number | null = null;
  const answer = await client.stream({ prompt: PROMPT, maxNewTokens: TOKENS }, (e) => {
    if (e.type === "delta" && ttftMs === null) ttftMs = since(t);
  });
  if (!answer.ok || answer.value.terminal?.type !== "result") throw new Error(`the socket stream failed: ${JSON.stringify(answer)}`);
  const totalMs = since(t);
  return { ttftMs: ttftMs ?? totalMs, totalMs, tokens: answer.value.terminal.generatedTokens };
}

const ZFloor = z.object({ runs: z.array(z.object({ ttftMs: z.number(), totalMs: z.number(), tokens: z.number() })) });

/** bench/serve_llm_floor.py with the serving process's own Python, release folder and base. */
function inProcess(python: string, releaseDir: string, base: string): Promise<Run[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(python, [path.join(REPO, "bench", "serve_llm_floor.py"), releaseDir, base, PROMPT, String(TOKENS), String(N)], {
      env: { ...process.env, PYTHONPATH: path.join(REPO, "training"), HF_HUB_OFFLINE: "1", OMP_NUM_THREADS: "1" },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
    child.once("exit", (code) => (code === 0 ? resolve(ZFloor.parse(JSON.parse(out.trim().split("\n").at(-1)!)).runs) : reject(new Error(`serve_llm_floor.py exited ${code}`))));
  });
}

async function cliJson(url: string, args: string[]): Promise<Record<string, unknown>> {
  const r = await runCli(url, [...args, "--json"]).done;
  if (r.code !== 0) throw new Error(`trainyard ${args.join(" ")}: ${r.stderr}`);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

const ZMade = z.object({ name: z.string(), urls: z.object({ stream: z.string(), health: z.string() }) });
const ZServeInput = z.object({ base: z.string().min(1) });

async function main() {
  const home = makeTestHome();
  const server = await startTestServer({ home, env: { TRAINYARD_TRAINING_DIR: path.join(REPO, "training") } });
  try {
    const { model } = await allowedModelFolder(server, home);
    const projectId = (await server.client.projects.create.mutate({ name: "Default" })).id;
    const examples = await uploadExamples(server, projectId);
    const started = await server.client.finetune.start.mutate({ opId: randomUUID(), projectId, datasetId: examples, settings: { base: { kind: "path", path: model }, ...SMALL, maxSteps: 2, maxMinutes: 5 } });
    const done = await waitForFineTune(server, started.experiment.id, "the fine-tune to end", hasEnded, 600_000);
    if (done.experiment.status !== "succeeded") throw new Error(`the fine-tune ended ${done.experiment.status}: ${done.experiment.reason}`);
    await server.client.models.register.mutate({ experimentId: started.experiment.id, newModelName: "Bench chat" });
    const made = ZMade.parse(await cliJson(server.url, ["deploy", "Bench chat:1", "--name", "bench-chat"]));
    const key = (await cliJson(server.url, ["deployments", "keys", "create", made.name])).key as string;
    await waitFor("the LLM release to load", async () => {
      const h = ZDeploymentHealth.parse(await (await fetch(made.urls.health, { headers: { authorization: `Bearer ${key}` } })).json());
      if (h.state === "failed") throw new Error(`the LLM deployment failed: ${h.reason}`);
      return h.state === "ready" ? true : undefined;
    }, 300_000, 500);

    // The serving job: its socket, its Python, the release folder it loaded and the base it loaded it on.
    const job = (await server.client.jobs.list.query({ limit: 100 })).find((j) => j.recipe === "serve-llm" && j.state === "running")!;
    const jobDir = path.join(home.workerHome, "jobs", job.workerJobId!);
    const receipt = JSON.parse(readFileSync(path.join(home.workerHome, "receipts", `${job.workerJobId}.json`), "utf8")) as { environmentId: string };
    const python = path.join(TEST_ENVS_DIR, receipt.environmentId, "venv", "bin", "python");
    const base = ZServeInput.parse(JSON.parse(readFileSync(path.join(jobDir, "input.json"), "utf8"))).base;

    const results: Array<[string, Run[]]> = [];
    results.push(["(a) public route POST /stream (key, SSE through the controller)", await runs(N, () => publicStream(made.urls.stream, key))]);
    const socket = new ServingClient({ socketPath: servingSocketPath(home.workerHome, job.workerJobId!) });
    results.push(["(b) serving socket POST /stream directly", await runs(N, () => socketStream(socket))]);
    results.push(["(c) generating in-process (serving code, no HTTP)", await inProcess(python, path.join(jobDir, "work", "release"), base)]);

    const load = os.loadavg().map((l) => l.toFixed(1)).join(" ");
    console.log(`\nbench/serve-llm: tiny GPT-2 + LoRA, ${TOKENS} new tokens, greedy, N=${N} per path, ${os.cpus().length} CPUs, load average ${load}\n`);
    console.log("| path | TTFT p50 ms | TTFT p95 ms | tokens/s p50 | tokens/s p95 (slowest 5 %) | tokens per stream |\n|---|---|---|---|---|---|");
    for (const [what, xs] of results) {
      const rate = xs.map((r) => (r.tokens * 1000) / r.totalMs);
      const tokens = [...new Set(xs.map((r) => r.tokens))].join(", ");
      console.log(`| ${what} | ${pct(xs.map((r) => r.ttftMs), 50).toFixed(1)} | ${pct(xs.map((r) => r.ttftMs), 95).toFixed(1)} | ${pct(rate, 50).toFixed(0)} | ${pct(rate, 5).toFixed(0)} | ${tokens} |`);
    }
    const ttft = (label: string) => pct(results.find(([w]) => w.startsWith(label))![1].map((r) => r.ttftMs), 50);
    console.log(`\npublic route TTFT p50 - in-process TTFT p50 = ${(ttft("(a)") - ttft("(c)")).toFixed(1)} ms (the serving path's cost before the first token)`);
  } finally {
    await cliJson(server.url, ["deployments", "stop", "bench-chat"]).catch(() => undefined);
    await server.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
