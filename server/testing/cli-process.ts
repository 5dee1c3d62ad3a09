/** Runs the `trainyard` command against a test server, collecting its output. */
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { REPO } from "./server-harness";

/**
 * Runs in a folder of its own under the temporary folder, as a user runs it where they work:
 * an export the command saves by default (into the working folder) stays out of the repository.
 */
export function runCli(url: string, args: string[]) {
  const child = spawn(process.execPath, [path.join(REPO, "bin/trainyard.mjs"), ...args], {
    cwd: mkdtempSync(path.join(os.tmpdir(), "trainyard-cli-")),
    env: { ...process.env, TRAINYARD_URL: url, TRAINYARD_TOKEN: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on("exit", (code) => resolve({ code, stdout, stderr })),
  );
  return { child, done, stderr: () => stderr };
}
