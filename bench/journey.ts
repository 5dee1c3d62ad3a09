/**
 * bench/journey: the whole CLI journey per dataset — upload, checks, quick training,
 * evaluation, verified export — timed from the CLI's start to the export on disk.
 *
 *   npx tsx bench/journey.ts FILE:TARGET [FILE:TARGET ...] [--max-minutes N]
 *
 * Starts its own server on a throw-away data home (recipe environments shared through
 * .tmp/envs), so it measures a warm machine, not the first-use environment build.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "@/server/testing/server-harness";

const REPO = path.resolve(import.meta.dirname, "..");
const BIN = path.join(REPO, "bin/trainyard.mjs");

async function main() {
  const args = process.argv.slice(2);
  const mm = args.indexOf("--max-minutes");
  const maxMinutes = mm >= 0 ? args[mm + 1]! : "3";
  const pairs = args.filter((a, i) => a.includes(":") && i !== mm + 1);
  if (!pairs.length) {
    console.error("usage: npx tsx bench/journey.ts FILE:TARGET [...] [--max-minutes N]");
    process.exit(2);
  }
  const home = mkdtempSync(path.join(os.tmpdir(), "trainyard-bench-"));
  const port = await freePort();
  const env = {
    ...process.env,
    TRAINYARD_HOME: path.join(home, "home"),
    TRAINYARD_PORT: String(port),
    TRAINYARD_ENVS_DIR: process.env.TRAINYARD_ENVS_DIR ?? path.join(REPO, ".tmp/envs"),
    NEXT_TELEMETRY_DISABLED: "1",
  };
  spawnSync(process.execPath, [path.join(REPO, "scripts/build-worker.mjs")], { stdio: "ignore" });
  const server = spawn(process.execPath, [BIN, "start"], { env, stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve) => server.stdout!.on("data", (d) => String(d).includes("is running") && resolve()));
  console.log(`load average: ${os.loadavg().map((x) => x.toFixed(1)).join(" ")}; ${os.cpus().length} CPUs; budget ${maxMinutes} min`);
  console.log(["dataset", "rows", "task", "metric", "split", "seconds to export", "candidate", "baseline", "better"].join("\t"));
  for (const pair of pairs) {
    const idx = pair.lastIndexOf(":");
    const file = pair.slice(0, idx);
    const target = pair.slice(idx + 1);
    const rows = readFileSync(file, "utf8").split("\n").filter(Boolean).length - 1;
    const started = Date.now();
    const run = spawnSync(
      process.execPath,
      [BIN, "train", "--data", file, "--target", target, "--max-minutes", maxMinutes, "--out", path.join(home, "out"), "--json"],
      { env: { ...env, TRAINYARD_URL: `http://127.0.0.1:${port}` }, encoding: "utf8", maxBuffer: 16 * 1024 * 1024 },
    );
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    if (run.status !== 0) {
      console.log([path.basename(file), rows, "-", "-", "-", seconds, "failed", run.stderr.trim().split("\n").pop()].join("\t"));
      continue;
    }
    const r = JSON.parse(run.stdout);
    const fmt = (v: number | null) => (v === null ? "-" : v.toPrecision(4));
    const split = r.split.column ? `${r.split.strategy}:${r.split.column}` : r.split.strategy;
    console.log([path.basename(file), rows, r.task, r.metric, split, seconds, fmt(r.candidate), fmt(r.baseline), r.betterThanBaseline].join("\t"));
  }
  server.kill("SIGTERM");
}

void main();
