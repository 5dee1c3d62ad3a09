/**
 * Starts the real Trainyard server (`bin/trainyard.mjs start`) as a child process on a
 * free loopback port with a throw-away data home, for integration tests. The web app
 * must have been built (`node bin/trainyard.mjs build`); the CLI rebuilds only when
 * sources changed.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

export const REPO = path.resolve(import.meta.dirname, "../..");
const BIN = path.join(REPO, "bin/trainyard.mjs");
// The recipe environments the test tiers share (pytest builds them first). Without them
// each server would build its own at start (This computer prepares a first training's
// environments ahead): gigabytes and minutes of pip per test file.
const TEST_ENVS_DIR = process.env.TRAINYARD_TEST_ENVS_DIR ?? path.join(REPO, ".tmp", "envs");

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === "object" && addr ? resolve(addr.port) : reject(new Error("no port"))));
    });
  });
}

export function tempHome(prefix = "trainyard-test-"): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

export interface ServerProcess {
  url: string;
  home: string;
  port: number;
  child: ChildProcess;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI without blocking this process. A test that then calls the server again
 * should use this one: spawnSync stops the event loop, so the test client cannot see the
 * server close an idle kept-alive connection meanwhile, and its next request goes out on
 * the dead socket ("fetch failed: other side closed").
 */
export function cliAsync(args: string[], env: Record<string, string>, input?: string): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: REPO, env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout!.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
    child.once("error", reject);
    child.once("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
    child.stdin!.end(input ?? "");
  });
}

export function cli(args: string[], env: Record<string, string>, input?: string) {
  return spawnSync(process.execPath, [BIN, ...args], {
    cwd: REPO,
    env: { ...process.env, ...env },
    input,
    encoding: "utf8",
    timeout: 120_000,
  });
}

/** Starts the server; resolves once /api/health answers, rejects if the process exits first. */
export async function startServer(opts: { home?: string; port?: number; env?: Record<string, string> } = {}): Promise<ServerProcess> {
  const home = opts.home ?? tempHome();
  const port = opts.port ?? (await freePort());
  const env = { ...process.env, TRAINYARD_HOME: home, TRAINYARD_PORT: String(port), TRAINYARD_ENVS_DIR: TEST_ENVS_DIR, NEXT_TELEMETRY_DISABLED: "1", ...opts.env };
  const child = spawn(process.execPath, [BIN, "start"], { cwd: REPO, env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    const early = await Promise.race([exited, new Promise<"wait">((r) => setTimeout(() => r("wait"), 150))]);
    if (early !== "wait") throw new Error(`server exited with ${early} before it was ready:\n${out}`);
    if (/is running at/.test(out)) break;
    if (Date.now() > deadline) {
      // Not left running (a build in progress would hold the CPUs for the tests after this one).
      child.kill("SIGKILL");
      throw new Error(`server did not start in time:\n${out}`);
    }
  }
  return {
    url,
    home,
    port,
    child,
    output: () => out,
    async stop(signal: NodeJS.Signals = "SIGTERM") {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      return exited;
    },
  };
}

/** Runs `trainyard start` and expects it to refuse; returns its exit code and output. */
export async function startExpectingRefusal(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [BIN, "start"], {
    cwd: REPO,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  const code = await new Promise<number | null>((resolve) => child.once("exit", (c) => resolve(c)));
  clearTimeout(timer);
  return { code, output };
}
