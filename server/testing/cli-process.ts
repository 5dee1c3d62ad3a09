/** Runs the `trainyard` command against a test server, collecting its output. */
import { spawn } from "node:child_process";
import path from "node:path";
import { REPO } from "./server-harness";

export function runCli(url: string, args: string[]) {
  const child = spawn(process.execPath, [path.join(REPO, "bin/trainyard.mjs"), ...args], {
    cwd: REPO,
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
