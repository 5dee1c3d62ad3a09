/**
 * The wizard and the CLI apply the data checks' recommendations through one function; fed
 * the same real checks.json (the data recipe run as the worker runs it, in its built
 * environment), they must choose the same columns and split, by default and when a person
 * declines a recommendation (a wizard checkbox off is the CLI's --keep or --split random).
 * The wizard and CLI calls below are the ones train-wizard.tsx and commands/train.ts make.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ZChecksResult, type ChecksResult } from "../recipes/data";
import { applyRecommendedActions, issueKey } from "./recommended-actions";

const ROOT = path.resolve(import.meta.dirname, "../..");
const ENVS = process.env.TRAINYARD_TEST_ENVS_DIR ?? path.join(ROOT, ".tmp", "envs");
const CSV = { format: "csv", delimiter: ",", encoding: "utf-8", header: true, quotechar: '"' } as const;
const tmp = mkdtempSync(path.join(os.tmpdir(), "vocab-checks-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The data recipe's built environment for the current lock file. */
function dataPython(): string {
  const lock = createHash("sha256").update(readFileSync(path.join(ROOT, "training/recipes/data/requirements.txt"))).digest("hex");
  for (const id of readdirSync(ENVS)) {
    try {
      const ready = JSON.parse(readFileSync(path.join(ENVS, id, "ready.json"), "utf8")) as { recipe?: string; requirementsSha256?: string };
      if (ready.recipe === "data" && ready.requirementsSha256 === lock) return path.join(ENVS, id, "venv", "bin", "python");
    } catch {
      // not an environment folder
    }
  }
  throw new Error(`no built data environment for requirements ${lock} under ${ENVS}: build it with npm run envs`);
}

let jobs = 0;
/** Runs data.checks the way the supervisor does: its own folders, the contract's variables. */
function realChecks(dataset: string, target: string): ChecksResult {
  const dir = path.join(tmp, `job-${++jobs}`);
  const p = { work: path.join(dir, "work"), output: path.join(dir, "output"), checkpoint: path.join(dir, "checkpoint"), input: path.join(dir, "input.json") };
  for (const d of [p.work, p.output, p.checkpoint]) mkdirSync(d, { recursive: true });
  writeFileSync(p.input, JSON.stringify({ dataset, datasetFormat: CSV, target }));
  const r = spawnSync(dataPython(), ["-m", "recipes.data", "checks", "--input", p.input], {
    cwd: p.work,
    encoding: "utf8",
    timeout: 120_000,
    env: {
      NODE_ENV: "test",
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PYTHONPATH: path.join(ROOT, "training"),
      TRAINYARD_JOB_ID: `job-${jobs}`,
      TRAINYARD_WORK_DIR: p.work,
      TRAINYARD_OUTPUT_DIR: p.output,
      TRAINYARD_CHECKPOINT_DIR: p.checkpoint,
      TRAINYARD_EVENTS_FILE: path.join(dir, "events.jsonl"),
      TRAINYARD_REPORT_FILE: path.join(dir, "report.json"),
      TRAINYARD_CPUS: "1",
      OMP_NUM_THREADS: "1",
    },
  });
  if (r.status !== 0) throw new Error(`data.checks exited ${r.status}: ${r.stderr.slice(-2000)}`);
  return ZChecksResult.parse(JSON.parse(readFileSync(path.join(p.output, "checks.json"), "utf8")));
}

/** Seattle weather plus a copy of the target (leakage) and a running row number (an ID). */
function seattleWithLeakAndId(): string {
  const lines = readFileSync(path.join(ROOT, "tests/fixtures/tabular/seattle_weather.csv"), "utf8").trim().split("\n");
  const header = lines[0]!.split(",");
  const weather = header.indexOf("weather");
  const out = [["row_id", ...header, "weather_copy"].join(",")];
  lines.slice(1).forEach((l, i) => out.push([`r${String(i).padStart(5, "0")}`, l, l.split(",")[weather]].join(",")));
  const file = path.join(tmp, "seattle-leak.csv");
  writeFileSync(file, `${out.join("\n")}\n`);
  return file;
}

describe("the wizard and the CLI apply real data checks the same way", () => {
  const checks = realChecks(seattleWithLeakAndId(), "weather");
  const wizard = (decided: Record<string, boolean>) => applyRecommendedActions(checks.issues, checks.target, { decided });
  const cli = (keep: string[], split: { strategy: "random" } | null) => applyRecommendedActions(checks.issues, checks.target, { keep, split });

  it("finds the issues this file really has: a time column, an ID and a copy of the target", () => {
    const codes = checks.issues.map((i) => i.code);
    expect(codes).toContain("time_column");
    expect(codes).toContain("leakage_suspect");
    expect(checks.issues.flatMap((i) => (i.recommendedAction.kind === "exclude_columns" ? i.recommendedAction.columns : []))).toEqual(
      expect.arrayContaining(["weather_copy", "row_id"]),
    );
  });

  it("choose the same columns and split when nothing is declined", () => {
    const w = wizard({});
    expect(w).toEqual(cli([], null));
    expect(w.excludeColumns).toEqual(expect.arrayContaining(["weather_copy", "row_id"]));
    expect(w.split).toEqual({ strategy: "time", column: "date" });
  });

  it("keep the same column when the wizard's checkbox is off and the CLI says --keep", () => {
    const leak = checks.issues.find((i) => i.code === "leakage_suspect" && i.columns.includes("weather_copy"))!;
    const w = wizard({ [issueKey(leak)]: false });
    const c = cli(leak.recommendedAction.kind === "exclude_columns" ? leak.recommendedAction.columns : [], null);
    expect(w.excludeColumns).toEqual(c.excludeColumns);
    expect(w.excludeColumns).not.toContain("weather_copy");
    expect(w.split).toEqual(c.split);
  });

  it("both train on a random split when the time split is declined", () => {
    const time = checks.issues.filter((i) => i.recommendedAction.kind === "time_split" || i.recommendedAction.kind === "group_split");
    const w = wizard(Object.fromEntries(time.map((i) => [issueKey(i), false])));
    const c = cli([], { strategy: "random" });
    expect(w.split).toEqual({ strategy: "random" });
    expect(c.split).toEqual(w.split);
    expect(c.excludeColumns).toEqual(w.excludeColumns);
  });
});
