/**
 * Integration-test harness for the controller: starts the REAL server as a child process
 * (`node bin/trainyard.mjs start`) with a throw-away TRAINYARD_HOME, a free loopback port,
 * the shared recipe-environment folder and a copy of fixture-training/ as the local
 * worker's recipes, and talks to it over HTTP (tRPC + superjson, or fetch). The web app
 * is built at most once per test process (ensureBuilt: only when sources changed) and
 * the worker bundle once (scripts/build-worker.mjs). Nothing is mocked.
 *
 * The fixture recipes are copied per home because Python writes __pycache__ next to
 * them, and a changed file under server/ would make the CLI rebuild the web app.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createTRPCClient, httpLink, type TRPCClient } from "@trpc/client";
import superjson from "superjson";
import { afterAll } from "vitest";
import { recordJobTimes } from "./job-times";
import { killProcessesNaming } from "./proc-scan";
import type { AppRouter } from "@/server/api/root";

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
export const TEST_ENVS_DIR = process.env.TRAINYARD_TEST_ENVS_DIR ?? path.join(REPO, ".tmp", "envs");
const FIXTURE_TRAINING = path.join(REPO, "server", "testing", "fixture-training");

let bundle: Promise<string> | null = null;
/** Builds dist/worker once per test process (esbuild, about a second); returns the bundle path. */
export function buildWorkerBundle(): Promise<string> {
  bundle ??= (async () => {
    const worker = (await import(path.join(REPO, "scripts", "build-worker.mjs"))) as { buildWorker: () => Promise<{ entry: string }> };
    return (await worker.buildWorker()).entry;
  })();
  return bundle;
}

let prepared: Promise<string> | null = null;
/** Builds the worker bundle and (if stale) the web app, once per test process; returns the bundle path. */
export function prepareBuilds(): Promise<string> {
  prepared ??= (async () => {
    const entry = await buildWorkerBundle();
    const { ensureBuilt } = await import("@/server/cli/ensure-built");
    await ensureBuilt(REPO);
    return entry;
  })();
  return prepared;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

export interface TestHome {
  root: string;
  home: string;
  workerHome: string;
  trainingDir: string;
  scratch: string;
}

/** A throw-away data home plus a scratch folder for files the fixture jobs write. */
const homesToRemove = new Set<string>();
// Test homes are removed after the test file, once its own afterAll hooks (stopping its
// servers) have run: registered first, this hook runs last. One with recipe outputs is
// hundreds of MB, and a test file run on its own (outside npm test's per-run TMPDIR) left
// each behind.
// Only inside vitest: the browser tests (Playwright) import helpers from here too, and
// vitest's hooks throw outside its runner.
if (process.env.VITEST)
  afterAll(async () => {
    for (const root of homesToRemove) {
      await recordJobTimes(root).catch((err: Error) => console.error(`job times of ${root}: ${err.message}`));
      // What the home's worker left running (a warm runner idles for minutes; a supervisor or a
      // control process may be ending) writes into it while it is removed: ENOTEMPTY, seen in
      // CI even with the retries below. They end first.
      await killProcessesNaming(root);
      // Retried: a process outside the scan (not ours to read) may still be ending.
      rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 250 });
    }
    homesToRemove.clear();
  });

export function makeTestHome(): TestHome {
  const root = mkdtempSync(path.join(os.tmpdir(), "trainyard-ctl-"));
  homesToRemove.add(root);
  const trainingDir = path.join(root, "training");
  cpSync(FIXTURE_TRAINING, trainingDir, { recursive: true });
  const scratch = path.join(root, "scratch");
  mkdirSync(scratch);
  mkdirSync(TEST_ENVS_DIR, { recursive: true });
  const home = path.join(root, "home");
  return { root, home, workerHome: path.join(home, "worker"), trainingDir, scratch };
}

export interface TestServer {
  url: string;
  pid: number;
  client: TRPCClient<AppRouter>;
  output(): string;
  kill9(): Promise<void>;
  stop(): Promise<void>;
}

export interface StartOptions {
  home: TestHome;
  /** Extra settings (e.g. TRAINYARD_RECONCILE_MS, TRAINYARD_UNREACHABLE_MINUTES). */
  env?: Record<string, string>;
  /** Reuse a port (a restart that clients must find at the same address). */
  port?: number;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

export async function startTestServer(opts: StartOptions): Promise<TestServer> {
  await prepareBuilds();
  const port = opts.port ?? (await freePort());
  const base: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("TRAINYARD_")) base[k] = v;
  const env = {
      ...base,
      NEXT_TELEMETRY_DISABLED: "1",
      TRAINYARD_HOME: opts.home.home,
      TRAINYARD_HOST: "127.0.0.1",
      TRAINYARD_PORT: String(port),
      TRAINYARD_ENVS_DIR: TEST_ENVS_DIR,
      TRAINYARD_TRAINING_DIR: opts.home.trainingDir,
      TRAINYARD_RECONCILE_MS: "250",
      ...opts.env,
  } as unknown as NodeJS.ProcessEnv;
  const child = spawn(process.execPath, [path.join(REPO, "bin", "trainyard.mjs"), "start"], { cwd: REPO, stdio: ["ignore", "pipe", "pipe"], env });
  let out = "";
  child.stdout!.on("data", (b: Buffer) => (out += b.toString()));
  child.stderr!.on("data", (b: Buffer) => (out += b.toString()));
  await new Promise<void>((resolve, reject) => {
    // Not left running when it does not start: a build in progress would hold the CPUs for the tests after this one.
    const timer = setTimeout(() => (child.kill("SIGKILL"), reject(new Error(`server did not start within 120 s:\n${out}`))), 120_000);
    const onData = () => {
      if (out.includes("Trainyard is running at")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on("data", onData);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code ?? signal}) before it was ready:\n${out}`));
    });
  });
  const url = `http://127.0.0.1:${port}`;
  const client = createTRPCClient<AppRouter>({ links: [httpLink({ url: `${url}/api/trpc`, transformer: superjson })] });
  return {
    url,
    pid: child.pid!,
    client,
    output: () => out,
    async kill9() {
      child.kill("SIGKILL");
      await exited(child);
    },
    async stop() {
      child.kill("SIGTERM");
      await exited(child);
    },
  };
}

/** Polls `check` until it returns a value other than undefined/false; never a fixed sleep. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 60_000, everyMs = 150): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v !== undefined && v !== false) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (last error: ${(last as Error).message})` : ""}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
