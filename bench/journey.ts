/**
 * bench/journey: the whole CLI journey per dataset — upload, checks, quick training,
 * evaluation, verified export — timed from the CLI's start to the export on disk, then
 * where that time went: per job the chain's wait before it, admission → process start,
 * process start → the recipe's first event (Python and imports), its wall time; the
 * recipe's own training time; and the ratio journey ÷ the train job's wall time (the
 * goal of issue 12 is ≤ 1.5).
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
import { createTRPCClient, httpLink } from "@trpc/client";
import superjson from "superjson";
import type { AppRouter } from "@/server/api/root";
import { TABULAR } from "@/server/experiments/pipelines/tabular";
import { freePort } from "@/server/testing/server-harness";
import { formatTimeline, timeline, type TimelineJob } from "./journey-timeline";

const REPO = path.resolve(import.meta.dirname, "..");
const BIN = path.join(REPO, "bin/trainyard.mjs");

async function main() {
  const args = process.argv.slice(2);
  const mm = args.indexOf("--max-minutes");
  const maxMinutes = mm >= 0 ? args[mm + 1]! : "3";
  const pairs = args.filter((a, i) => a.includes(":") && (mm < 0 || i !== mm + 1));
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
  const client = createTRPCClient<AppRouter>({ links: [httpLink({ url: `http://127.0.0.1:${port}/api/trpc`, transformer: superjson })] });
  console.log(["dataset", "rows", "task", "metric", "split", "seconds to export", "train job wall", "ratio", "candidate", "baseline", "better"].join("\t"));
  for (const pair of pairs) {
    const idx = pair.lastIndexOf(":");
    const file = pair.slice(0, idx);
    const target = pair.slice(idx + 1);
    const rows = readFileSync(file, "utf8").split("\n").filter(Boolean).length - 1;
    const started = Date.now();
    const startedIso = new Date(started).toISOString();
    const run = spawnSync(
      process.execPath,
      [BIN, "train", "--data", file, "--target", target, "--max-minutes", maxMinutes, "--out", path.join(home, "out"), "--json"],
      { env: { ...env, TRAINYARD_URL: `http://127.0.0.1:${port}` }, encoding: "utf8", maxBuffer: 16 * 1024 * 1024 },
    );
    const finished = Date.now();
    const seconds = ((finished - started) / 1000).toFixed(1);
    if (run.status !== 0) {
      console.log([path.basename(file), rows, "-", "-", "-", seconds, "-", "-", "failed", run.stderr.trim().split("\n").pop()].join("\t"));
      continue;
    }
    const r = JSON.parse(run.stdout);
    // spawnSync blocked this process for minutes: the server has closed the idle keep-alive
    // socket, and the first request on it may fail with EPIPE. Once more is enough.
    const retry = <T>(f: () => Promise<T>) => f().catch(() => f());
    const exp = await retry(() => client.experiments.get.query({ id: r.experimentId }));
    const jobs = (await retry(() => client.jobs.list.query({ limit: 500 }))).filter((j) => Date.parse(j.createdAt) >= started);
    const stepOf = new Map(exp.steps.filter((s) => s.jobId).map((s) => [s.jobId!, s.step]));
    const timelineJobs: TimelineJob[] = jobs.map((j) => {
      const step = stepOf.get(j.id);
      return {
        label: step ?? `${j.recipe}.${j.jobName}`,
        createdAt: j.createdAt,
        startedAt: j.startedAt,
        endedAt: j.endedAt,
        workerJobId: j.workerJobId,
        needs: step ? [...(TABULAR.steps.find((s) => s.name === step)?.needs ?? [])] : [],
      };
    });
    const trainJob = timelineJobs.find((j) => j.label === "train");
    const trainWall = trainJob?.startedAt && trainJob.endedAt ? (Date.parse(trainJob.endedAt) - Date.parse(trainJob.startedAt)) / 1000 : null;
    const fmt = (v: number | null) => (v === null ? "-" : v.toPrecision(4));
    const split = r.split.column ? `${r.split.strategy}:${r.split.column}` : r.split.strategy;
    const ratio = trainWall ? (Number(seconds) / trainWall).toFixed(2) : "-";
    console.log([path.basename(file), rows, r.task, r.metric, split, seconds, trainWall?.toFixed(1) ?? "-", ratio, fmt(r.candidate), fmt(r.baseline), r.betterThanBaseline].join("\t"));
    const training = (exp.results?.training ?? {}) as { wallSeconds?: number; fitSeconds?: number };
    const pkg = timelineJobs.find((j) => j.label === "package");
    const lastJobEnd = Math.max(...timelineJobs.map((j) => (j.endedAt ? Date.parse(j.endedAt) : 0)));
    const s1 = (ms: number) => (ms / 1000).toFixed(1);
    console.log(
      [
        `${path.basename(file)}: ${seconds} s from the CLI's start to the verified export on disk`,
        `  the CLI's start → the first job admitted (upload, snapshot): ${s1(Math.min(...timelineJobs.map((j) => Date.parse(j.createdAt))) - started)} s`,
        formatTimeline(timeline(timelineJobs, path.join(env.TRAINYARD_HOME, "worker"), startedIso)),
        `  train recipe's own time: ${training.wallSeconds?.toFixed(1) ?? "-"} s (AutoGluon fit ${training.fitSeconds?.toFixed(1) ?? "-"} s)`,
        `  package ended → experiment succeeded (export copied, results read): ${pkg?.endedAt && exp.endedAt ? s1(Date.parse(exp.endedAt) - Date.parse(pkg.endedAt)) : "-"} s`,
        `  experiment succeeded → export verified on disk (CLI poll, download, SHA-256): ${exp.endedAt ? s1(finished - Date.parse(exp.endedAt)) : "-"} s`,
        `  sum of job walls: ${s1(timelineJobs.reduce((a, j) => a + (j.startedAt && j.endedAt ? Date.parse(j.endedAt) - Date.parse(j.startedAt) : 0), 0))} s; last job ended ${s1(finished - lastJobEnd)} s before the end`,
      ].join("\n"),
    );
  }
  server.kill("SIGTERM");
}

void main();
