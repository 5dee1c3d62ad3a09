/**
 * Bounded searches through the real server, worker and recipes on penguins (issue 17):
 * the budget holds, every trial is in the ledger once, trials are scored on validation
 * only and the test partition exactly once at the end; keep-the-baseline is an outcome.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "@/server/testing/cli-process";
import { REPO } from "@/server/testing/server-harness";
import { realRecipesServerForBlock } from "@/server/testing/real-recipes-server";
import { openDb } from "@/server/db/client";

const PENGUINS = path.join(REPO, "tests/fixtures/tabular/penguins.csv");

/** Each trial's booked span, its training job's CPUs and when the final experiment started, read from the server's own database. */
async function trialSpans(homeDir: string, searchId: string, finalExperimentId: string) {
  const db = openDb(path.join(homeDir, "trainyard.db"));
  const trials = await db.searchTrial.findMany({ where: { searchId }, orderBy: { number: "asc" }, select: { number: true, reservedAt: true, endedAt: true } });
  const trains = await db.job.findMany({ where: { recipe: "tabular", jobName: "train", opId: { startsWith: `search:${searchId}:trial:` } }, select: { resources: true } });
  const final = await db.experiment.findUniqueOrThrow({ where: { id: finalExperimentId }, select: { startedAt: true } });
  await db.$disconnect();
  return {
    trials: trials.map((t) => ({ number: t.number, from: t.reservedAt!.getTime(), to: t.endedAt!.getTime() })),
    trainCpus: trains.map((j) => (JSON.parse(j.resources) as { cpus: number }).cpus),
    finalStartedAt: final.startedAt.getTime(),
  };
}

/** The partition of every score job of the search's experiments, read from the server's own database. */
async function scoredPartitions(homeDir: string, searchId: string): Promise<string[]> {
  const db = openDb(path.join(homeDir, "trainyard.db"));
  const jobs = await db.job.findMany({ where: { recipe: "evaluation", jobName: "score", opId: { startsWith: `search:${searchId}:` } }, select: { input: true } });
  await db.$disconnect();
  return jobs.map((j) => (JSON.parse(j.input) as { partition?: string }).partition ?? "test").sort();
}

describe("a search on penguins", { timeout: 600_000 }, () => {
  const { home, server } = realRecipesServerForBlock();

  it("runs two trials at once and stops when its time is spent, within 5 % of the budget; chooses on validation and scores test once", async () => {
    // (Held by what each trial books and the worker's deadlines on them: search-budget.ts, tabular-trial.ts.)
    const out = path.join(home.scratch, "out");
    // Two minutes for the whole search, a minute booked per trial, two at once: time, not the
    // trial count, ends it (two at once ran 20 trials of penguins in 43 s).
    const run = await runCli(server.url, ["train", "--data", PENGUINS, "--target", "species", "--mode", "improve", "--max-trials", "200", "--max-minutes", "2", "--trial-minutes", "1", "--parallel-trials", "2", "--out", out, "--json"]).done;
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result).toMatchObject({ status: "completed", outcome: "candidate" });
    expect(result.reason).toMatch(/time budget/);
    expect(result.wallSeconds).toBeLessThanOrEqual(120 * 1.05);
    expect(result.validation).toBeGreaterThan(0.9);
    expect(result.test).toBeGreaterThan(0.9);
    expect(result.exportPath).toMatch(/\.tar\.gz$/);

    const s = await server.client.searches.get.query({ id: result.searchId });
    const n = s.trials.length;
    expect(n).toBeGreaterThanOrEqual(2);
    expect(s.spec.budget.parallelTrials).toBe(2);
    // Two trials at once, never three (no trial's booked span overlaps two others that
    // overlap each other); each trained on half of This computer's CPUs.
    const spans = await trialSpans(home.home, s.id, s.final!.experimentId);
    const beside = (t: { number: number; from: number; to: number }) => spans.trials.filter((o) => o.number !== t.number && o.from < t.to && t.from < o.to);
    expect(spans.trials.some((t) => beside(t).length > 0)).toBe(true);
    for (const t of spans.trials) {
      const others = beside(t);
      expect(others.every((a) => others.every((b) => a === b || !(a.from < b.to && b.from < a.to)))).toBe(true);
    }
    // Out of time with a trial still running, the search waited for it before its final scoring.
    expect(spans.finalStartedAt).toBeGreaterThanOrEqual(Math.max(...spans.trials.map((t) => t.to)));
    expect(spans.trainCpus.length).toBe(n);
    const probe = (await server.client.targets.get.query({ id: s.targetId })).probe!;
    expect(new Set(spans.trainCpus)).toEqual(new Set([Math.max(1, Math.floor(probe.capacity.cpus / 2))]));
    expect(result.trials).toBe(n);
    expect(s.trials.map((t) => [t.number, t.status, t.proposer.kind])).toEqual(s.trials.map((t, i) => [i + 1, "succeeded", "planner"]));
    for (const t of s.trials) {
      expect(t.validationValue).not.toBeNull();
      expect(t.usedSeconds!).toBeLessThanOrEqual(t.reservedSeconds + 30);
    }
    // Each trial and the (shared) baseline on validation; the chosen model and the baseline once each on test.
    expect(await scoredPartitions(home.home, s.id)).toEqual([...["test", "test"], ...Array(n + 1).fill("validation")]);
    // The agent's view has no test score anywhere.
    const v = await server.client.searches.validation.query({ id: s.id, projectId: s.projectId });
    expect(JSON.stringify(v)).not.toContain('"test"');
    expect("final" in v).toBe(false);
    // Trials are the search's, not experiments of their own; the final one is.
    const listed = await server.client.experiments.list.query({ projectId: s.projectId });
    expect(listed.map((e) => e.id)).toEqual([s.final!.experimentId]);
    // The chosen model registers like any experiment's.
    const registered = await server.client.models.register.mutate({ experimentId: s.final!.experimentId, newModelName: "penguin-search" });
    expect(registered).toMatchObject({ created: true, version: { number: 1, exportSha256: s.final!.exportSha256 } });
  });

  it("keeps the baseline when no trial beats it by the minimum useful gain, after patience runs out", async () => {
    const run = await runCli(server.url, ["train", "--data", PENGUINS, "--target", "species", "--mode", "improve", "--max-trials", "5", "--max-minutes", "4", "--trial-minutes", "1", "--min-gain", "2", "--patience", "1", "--json"]).done;
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result).toMatchObject({ status: "completed", outcome: "keep_baseline", trials: 2, exportPath: null, test: null });
    expect(result.reason).toMatch(/patience/);
    expect(result.baselineTest).toBeGreaterThan(0.3);
    expect(result.baselineTest).toBeLessThan(0.6);
  });
});
