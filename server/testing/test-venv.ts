/**
 * A Python venv for tools the integration tests drive from outside (Schemathesis, the
 * protocol clients), built once per requirements file into the recipe environments' folder
 * (TRAINYARD_TEST_ENVS_DIR), like the pytest venvs, and keyed by the file's hash so an edited
 * pin builds a new one.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { REPO } from "./server-harness";

function envsDir(): string {
  return process.env.TRAINYARD_TEST_ENVS_DIR ?? path.join(REPO, ".tmp/envs");
}

/** Runs a command to its end; rejects with its output when it fails. Never blocks the event loop (pooled sockets would go stale). */
export function runToEnd(cmd: string, args: string[], opts: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"], env: opts.env ?? process.env, cwd: opts.cwd });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    child.once("error", reject);
    child.once("close", (code) => (code === 0 ? resolve(output) : reject(new Error(`${cmd} ${args.join(" ")} failed (${code}): ${output}`))));
  });
}

/** The venv's folder for `requirements` (relative to the repository), building it first when none is ready. */
export async function testVenv(name: string, requirements: string): Promise<string> {
  const file = path.join(REPO, requirements);
  const digest = createHash("sha256").update(readFileSync(file)).digest("hex");
  const venv = path.join(envsDir(), `${name}-${digest}`);
  // Written last: a venv a killed run left half-built is never taken for a ready one.
  const ready = path.join(venv, ".ready");
  if (existsSync(ready)) return venv;
  rmSync(venv, { recursive: true, force: true });
  await runToEnd("python3", ["-m", "venv", venv]);
  await runToEnd(path.join(venv, "bin/pip"), ["install", "--quiet", "--disable-pip-version-check", "-r", file]);
  writeFileSync(ready, "");
  return venv;
}

/** The Python of the protocol clients' venv (openai, pandas, requests). */
export async function protocolClientsPython(): Promise<string> {
  return path.join(await testVenv("protocol-clients", "tests/protocol-clients/requirements.txt"), "bin/python");
}
