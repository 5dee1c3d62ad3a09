/**
 * bench/search: quick mode vs a bounded search (issue 17) per dataset, against a floor.
 *
 *   npx tsx bench/search.ts FILE:TARGET [FILE:TARGET ...] [--minutes N (10)] [--trials N (20)]
 *
 * Per dataset, through the CLI on its own server: `trainyard train --json` (quick), then
 * `trainyard train --mode improve --max-minutes N --max-trials N --json`; then the floor,
 * scikit-learn HistGradientBoosting with default settings fit on the train rows of the
 * same split and scored on its validation and test rows (bench/search_floor.py, in the
 * evaluation recipe's environment, with that recipe's metrics).
 *
 * All experiments on one snapshot + target + split settings share one split job, so the
 * partitions are identical: the bench checks it (the split SHA-256 in the quick
 * experiment's receipt vs the search's final receipt, and the split job of each) and reads
 * that job's partition.csv from the worker's store for the floor.
 *
 * Wall time vs budget: the search's own clock (created → ended; the goal is to end within
 * 5 % of its wall budget) and the CLI's (upload, checks and export download included).
 * Then each trial's booked vs used seconds, and the gap between one trial's end and the next
 * one's creation (issue 29: ≤ 1 s).
 *
 * Starts its own server on a throw-away data home (recipe environments shared through
 * .tmp/envs), like bench/journey.ts.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createTRPCClient, httpLink } from "@trpc/client";
import superjson from "superjson";
import type { AppRouter } from "@/server/api/root";
import { freePort } from "@/server/testing/server-harness";

const REPO = path.resolve(import.meta.dirname, "..");
const BIN = path.join(REPO, "bin/trainyard.mjs");

type Client = ReturnType<typeof createTRPCClient<AppRouter>>;
type Row = { dataset: string; mode: string; validation: number | null; test: number | null; trials: string; wall: string; budget: string; overrun: string; split: string };

function flag(args: string[], name: string, fallback: string): string {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1]! : fallback;
}

const fmt = (v: number | null | undefined) => (v === null || v === undefined ? "-" : Number(v.toPrecision(4)).toString());
const pct = (wall: number, budget: number) => `${(((wall - budget) / budget) * 100).toFixed(1)} %`;
// spawnSync blocked this process for minutes: the server has closed the idle keep-alive
// socket, and the first request on it may fail with EPIPE. Once more is enough.
const retry = <T>(f: () => Promise<T>) => f().catch(() => f());

function cli(env: NodeJS.ProcessEnv, args: string[]): { json: Record<string, unknown> | null; seconds: number; error: string } {
  const started = Date.now();
  // stderr (progress, one line per trial) goes to the terminal; stdout is the --json object.
  const run = spawnSync(process.execPath, [BIN, ...args], { env, stdio: ["ignore", "pipe", "inherit"], encoding: "utf8", maxBuffer: 16 * 1024 * 1024 });
  const seconds = (Date.now() - started) / 1000;
  try {
    return { json: JSON.parse(run.stdout) as Record<string, unknown>, seconds, error: run.status === 0 ? "" : `exit ${run.status}` };
  } catch {
    return { json: null, seconds, error: `exit ${run.status}: ${run.stdout.trim().split("\n").pop() ?? ""}` };
  }
}

/** The evaluation recipe's environment: the one the experiment's scoring job ran in, else any ready one. */
function evaluationPython(envsDir: string, environmentId: string | null): string {
  const candidates = environmentId ? [environmentId] : [];
  for (const d of readdirSync(envsDir)) {
    try {
      if (JSON.parse(readFileSync(path.join(envsDir, d, "ready.json"), "utf8")).recipe === "evaluation") candidates.push(d);
    } catch {
      // not an environment folder (or one still being built)
    }
  }
  const found = candidates.map((id) => path.join(envsDir, id, "venv/bin/python")).find((p) => existsSync(p));
  if (!found) throw new Error(`no evaluation environment under ${envsDir}`);
  return found;
}

async function main() {
  const args = process.argv.slice(2);
  const minutes = flag(args, "--minutes", "10");
  const trials = flag(args, "--trials", "20");
  const valued = new Set([args.indexOf("--minutes") + 1, args.indexOf("--trials") + 1]);
  const pairs = args.filter((a, i) => a.includes(":") && !valued.has(i));
  if (!pairs.length) {
    console.error("usage: npx tsx bench/search.ts FILE:TARGET [...] [--minutes N (10)] [--trials N (20)]");
    process.exit(2);
  }
  const home = mkdtempSync(path.join(os.tmpdir(), "trainyard-bench-"));
  const port = await freePort();
  const envsDir = process.env.TRAINYARD_ENVS_DIR ?? path.join(REPO, ".tmp/envs");
  const env = {
    ...process.env,
    TRAINYARD_HOME: path.join(home, "home"),
    TRAINYARD_PORT: String(port),
    TRAINYARD_ENVS_DIR: envsDir,
    NEXT_TELEMETRY_DISABLED: "1",
  };
  const workerHome = path.join(env.TRAINYARD_HOME, "worker");
  spawnSync(process.execPath, [path.join(REPO, "scripts/build-worker.mjs")], { stdio: "ignore" });
  const server = spawn(process.execPath, [BIN, "start"], { env, stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve) => server.stdout!.on("data", (d) => String(d).includes("is running") && resolve()));
  const cliEnv = { ...env, TRAINYARD_URL: `http://127.0.0.1:${port}` };
  const client: Client = createTRPCClient<AppRouter>({ links: [httpLink({ url: `http://127.0.0.1:${port}/api/trpc`, transformer: superjson })] });
  console.log(`load average: ${os.loadavg().map((x) => x.toFixed(1)).join(" ")}; ${os.cpus().length} CPUs; search budget ${minutes} min, at most ${trials} trials`);

  const rows: Row[] = [];
  const notes: string[] = [];
  for (const pair of pairs) {
    const idx = pair.lastIndexOf(":");
    const file = pair.slice(0, idx);
    const target = pair.slice(idx + 1);
    const dataset = path.basename(file, ".csv");
    const out = path.join(home, "out", dataset);

    // Quick mode, at its default budget.
    const q = cli(cliEnv, ["train", "--data", file, "--target", target, "--out", out, "--json"]);
    if (!q.json || q.error) {
      notes.push(`${dataset}: quick mode failed (${q.error}) ${JSON.stringify(q.json?.error ?? "")}`);
      continue;
    }
    const quick = await retry(() => client.experiments.get.query({ id: String(q.json!.experimentId) }));
    const splitJobId = quick.steps.find((s) => s.step === "split")?.jobId ?? null;
    const quickSplit = quick.results?.candidate.evaluationContract.splitSha256 ?? null;
    rows.push({
      dataset,
      mode: "quick",
      validation: quick.results?.training?.validationScore ?? null,
      test: quick.results?.candidate.primaryValue ?? null,
      trials: "1",
      wall: `${quick.seconds} (CLI ${q.seconds.toFixed(0)})`,
      budget: String(quick.budgetSeconds),
      overrun: pct(quick.seconds, quick.budgetSeconds),
      split: quickSplit?.slice(0, 12) ?? "-",
    });

    // The search.
    const sr = cli(cliEnv, ["train", "--data", file, "--target", target, "--mode", "improve", "--max-minutes", minutes, "--max-trials", trials, "--out", out, "--json"]);
    if (!sr.json?.searchId) {
      notes.push(`${dataset}: the search did not start (${sr.error}) ${JSON.stringify(sr.json?.error ?? "")}`);
      continue;
    }
    const search = await retry(() => client.searches.get.query({ id: String(sr.json!.searchId) }));
    const finalReceipt = search.final?.candidate ?? search.final?.baseline ?? null;
    const searchSplit = finalReceipt?.evaluationContract.splitSha256 ?? null;
    // The chosen model's final experiment is a tabular one (experiments.get shows its split
    // job); a kept baseline's is a search part, read through searches.get only.
    let finalSplitJobId: string | null = null;
    if (search.outcome?.kind === "candidate" && search.final) {
      const fin = await retry(() => client.experiments.get.query({ id: search.final!.experimentId }));
      finalSplitJobId = fin.steps.find((s) => s.step === "split")?.jobId ?? null;
    }
    const searchWall = search.endedAt ? (search.endedAt.getTime() - search.createdAt.getTime()) / 1000 : search.budget.wallUsedSeconds;
    const budget = search.budget.wallBudgetSeconds;
    const booked = search.trials.filter((t) => t.reservedSeconds > 0);
    const validation = search.outcome?.kind === "candidate" ? search.outcome.validationValue : (search.outcome?.bestValidationValue ?? null);
    rows.push({
      dataset,
      mode: search.outcome?.kind === "candidate" ? `search (trial ${search.outcome.trialNumber})` : `search (kept baseline)`,
      validation,
      test: search.final?.candidate?.primaryValue ?? null,
      trials: String(booked.length),
      wall: `${searchWall.toFixed(0)} (CLI ${sr.seconds.toFixed(0)})`,
      budget: String(budget),
      overrun: pct(searchWall, budget),
      split: searchSplit?.slice(0, 12) ?? "-",
    });
    rows.push({
      dataset,
      mode: "baseline (search's)",
      validation: search.outcome?.baselineValidationValue ?? null,
      test: search.final?.baseline?.primaryValue ?? null,
      trials: "-",
      wall: "-",
      budget: "-",
      overrun: "-",
      split: search.final?.baseline?.evaluationContract.splitSha256.slice(0, 12) ?? "-",
    });
    const splitsMatch = quickSplit !== null && quickSplit === searchSplit;
    notes.push(
      `${dataset}: split SHA-256 quick ${quickSplit ?? "-"} vs search final ${searchSplit ?? "-"}: ${splitsMatch ? "match" : "DIFFER"}; ` +
        `split job quick ${splitJobId ?? "-"}${finalSplitJobId ? ` vs final ${finalSplitJobId} (${finalSplitJobId === splitJobId ? "same job" : "DIFFERENT job"})` : ""}`,
      `${dataset}: search ${search.status} (${search.reason ?? ""}); clock ${searchWall.toFixed(1)} s created → ended, ${search.budget.wallUsedSeconds.toFixed(1)} s by its own ledger, budget ${budget} s (final reserve ${search.budget.finalReserveSeconds} s); CLI ${sr.seconds.toFixed(1)} s`,
      ...booked.map(
        (t) =>
          `  trial ${t.number} ${t.status}: booked ${t.reservedSeconds} s, used ${t.usedSeconds === null ? "-" : t.usedSeconds.toFixed(1)} s` +
          `${t.usedSeconds !== null && t.usedSeconds > t.reservedSeconds ? ` (OVER by ${(t.usedSeconds - t.reservedSeconds).toFixed(1)} s)` : ""}` +
          `, validation ${fmt(t.validationValue)}${t.reason && t.status !== "succeeded" ? ` (${t.reason})` : ""}`,
      ),
    );
    // Issue 29's goal: a search's gap between trials (one trial's end → the next one's creation) ≤ 1 s.
    const gaps = booked
      .slice(1)
      .map((t, i) => (booked[i]!.endedAt ? (t.createdAt.getTime() - booked[i]!.endedAt!.getTime()) / 1000 : null))
      .filter((g): g is number => g !== null && g >= 0)
      .sort((x, y) => x - y);
    if (gaps.length) notes.push(`  gap between trials (end → next created): median ${gaps[Math.floor(gaps.length / 2)]!.toFixed(2)} s, max ${gaps[gaps.length - 1]!.toFixed(2)} s over ${gaps.length}`);
    if (search.endedAt) {
      const lastTrialEnd = Math.max(...booked.map((t) => (t.endedAt ? t.endedAt.getTime() : 0)));
      if (lastTrialEnd > 0) notes.push(`  last trial ended → search ended (final scoring on test): ${((search.endedAt.getTime() - lastTrialEnd) / 1000).toFixed(1)} s`);
    }

    // The floor, on the split job's own partition.csv.
    const splitJob = splitJobId ? await retry(() => client.jobs.get.query({ id: splitJobId })) : null;
    const partition = splitJob?.workerJobId ? path.join(workerHome, "jobs", splitJob.workerJobId, "output", "partition.csv") : null;
    const scoreJobId = quick.steps.find((s) => s.step === "score_candidate")?.jobId;
    const scoreJob = scoreJobId ? await retry(() => client.jobs.get.query({ id: scoreJobId })) : null;
    if (!partition || !existsSync(partition)) {
      notes.push(`${dataset}: no partition.csv for the split job (${partition ?? "no worker job"}): no floor`);
      continue;
    }
    const settings = quick.settings;
    const floorArgs = [
      path.join(REPO, "bench/search_floor.py"),
      "--data", file, "--target", target, "--partition", partition,
      "--task", settings.task, "--metric", settings.metric,
      ...settings.excludeColumns.flatMap((c) => ["--exclude", c]),
      ...(settings.positiveClass !== null && settings.positiveClass !== undefined ? ["--positive-class", String(settings.positiveClass)] : []),
    ];
    const fl = spawnSync(evaluationPython(envsDir, scoreJob?.environmentId ?? null), floorArgs, { encoding: "utf8" });
    if (fl.status !== 0) {
      notes.push(`${dataset}: the floor failed: ${fl.stderr.trim().split("\n").pop()}`);
      continue;
    }
    const floor = JSON.parse(fl.stdout) as { validation: number | null; test: number | null; trainRows: number; validationRows: number; testRows: number; fitSeconds: number };
    rows.push({ dataset, mode: "floor: HistGradientBoosting", validation: floor.validation, test: floor.test, trials: "-", wall: `${floor.fitSeconds} (fit)`, budget: "-", overrun: "-", split: quickSplit?.slice(0, 12) ?? "-" });
    const higher = finalReceipt?.direction !== "lower_is_better";
    const searchTest = search.final?.candidate?.primaryValue ?? search.final?.baseline?.primaryValue ?? null;
    const beat = searchTest !== null && floor.test !== null ? (higher ? searchTest > floor.test : searchTest < floor.test) : null;
    notes.push(
      `${dataset}: floor on ${floor.trainRows} train / ${floor.validationRows} validation / ${floor.testRows} test rows of ${path.relative(home, partition)}; ` +
        `search test ${fmt(searchTest)} vs floor ${fmt(floor.test)} (${settings.metric}, ${higher ? "higher" : "lower"} is better): ${beat === null ? "-" : beat ? "the search beat the floor" : "the search did NOT beat the floor"}; ` +
        `quick ${fmt(quick.results?.candidate.primaryValue)}`,
    );
  }

  console.log("");
  console.log("| dataset | mode | validation | test | trials | wall s | budget s | overrun | split sha256 |");
  console.log("|---|---|---|---|---|---|---|---|---|");
  for (const r of rows) console.log(`| ${r.dataset} | ${r.mode} | ${fmt(r.validation)} | ${fmt(r.test)} | ${r.trials} | ${r.wall} | ${r.budget} | ${r.overrun} | ${r.split} |`);
  console.log("");
  for (const n of notes) console.log(n);
  server.kill("SIGTERM");
}

void main();
