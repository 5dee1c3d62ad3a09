/**
 * Admitting one run of a schedule, one step at a time, each step decided from the database
 * so that the reconciler resumes it after a restart: observing (the file stays the same
 * across two looks `stableSeconds` apart: a file being copied is not new data), importing
 * (snapshotted like an upload; the same bytes under the same spec are a no-op, and the
 * run's key (schedule, slot, data) is unique), profiling (the new-rows minimum), checking
 * (the data checks and their recommended actions, as the CLI applies them; the lifetime
 * caps), starting (an experiment or a search whose opId is the run's id: a restart in
 * between starts the same one again, never a second). A step that must wait returns;
 * the data's events and the sweep bring it back.
 */
import { createHash } from "node:crypto";
import { applyRecommendedActions } from "@/contracts/vocabulary/recommended-actions";
import { ZFileObservation, ZScheduleSource, ZScheduleSpec, type ScheduleSource, type ScheduleSpec } from "@/contracts/schedules/schedules";
import { WORKER_PROTOCOL } from "@/contracts/worker";
import type { Db } from "@/server/db/client";
import { parseStoredJson } from "@/server/db/stored-json";
import { datasetsService } from "@/server/datasets/datasets.service";
import { registerPathOn } from "@/server/datasets/register";
import { isDomainError } from "@/server/errors";
import { experimentsService } from "@/server/experiments/experiments.service";
import { searchesService } from "@/server/searches/searches.service";
import { targetsService } from "@/server/targets/targets.service";
import { WorkerRefused } from "@/server/targets/transport-errors";
import { isUnreachable } from "@/server/targets/unreachable";
import { capReached, finishAtCap } from "./caps";
import { schedulesRepository, type RunRow, type ScheduleRow } from "./schedules.repository";
import { principalOf } from "./schedule-principal";

type Step = "wait" | "next" | "done";

interface Ctx {
  db: Db;
  s: ScheduleRow;
  run: RunRow;
  source: ScheduleSource;
  spec: ScheduleSpec;
}

export const QUICK_MINUTES = 5;
export const IMPROVE_MINUTES = 10;
export const budgetMinutesOf = (spec: ScheduleSpec): number => spec.maxMinutes ?? (spec.mode === "quick" ? QUICK_MINUTES : IMPROVE_MINUTES);
export const specHashOf = (spec: ScheduleSpec): string => createHash("sha256").update(JSON.stringify(ZScheduleSpec.parse(spec))).digest("hex");

/** Advances an admitting run as far as it can go now; true when it reached a decision. */
export async function advanceAdmission(db: Db, s: ScheduleRow, run: RunRow): Promise<boolean> {
  const ctx: Ctx = { db, s, run, source: ZScheduleSource.parse(JSON.parse(s.source)), spec: ZScheduleSpec.parse(JSON.parse(s.spec)) };
  for (let i = 0; i < 6; i++) {
    let step: Step;
    try {
      step = await STEPS[ctx.run.step as keyof typeof STEPS](ctx);
    } catch (err) {
      if (isUnreachable(err)) {
        await update(ctx, { reason: `The computer did not answer (${(err as Error).message}); trying again.` });
        return false;
      }
      if (isDomainError(err) && (err.code === "BAD_INPUT" || err.code === "NOT_FOUND" || err.code === "CONFLICT")) {
        await decide(ctx, "refused", err.message);
        return true;
      }
      throw err;
    }
    if (step !== "next") return step === "done";
  }
  return false;
}

const STEPS = {
  observing,
  importing,
  profiling,
  checking,
  starting,
} as const;

async function update(ctx: Ctx, data: Parameters<ReturnType<typeof schedulesRepository>["updateRun"]>[1]): Promise<void> {
  ctx.run = await schedulesRepository(ctx.db).updateRun(ctx.run.id, data);
}

/** A final decision about this run (not started: no-op or refused). */
export async function decide(ctx: { db: Db; run: RunRow }, outcome: "no_op" | "refused", reason: string): Promise<void> {
  await schedulesRepository(ctx.db).updateRun(ctx.run.id, { outcome, reason, step: null });
}

async function observing(ctx: Ctx): Promise<Step> {
  const target = await targetsService(ctx.db).requireTarget(ctx.source.computerId);
  let seen;
  try {
    seen = await targetsService(ctx.db).execOn(target, { protocol: WORKER_PROTOCOL, op: "peek", path: ctx.source.path, maxRows: 1, maxBytes: 1 });
  } catch (err) {
    if (err instanceof WorkerRefused) {
      await decide(ctx, "refused", `${target.name} cannot read ${ctx.source.path}: ${err.message}`);
      return "done";
    }
    throw err;
  }
  const now = { bytes: seen.bytes, mtimeMs: seen.mtimeMs ?? 0, at: Date.now() };
  const before = parseStoredJson(ZFileObservation, ctx.run.observed);
  if (before && before.bytes === now.bytes && before.mtimeMs === now.mtimeMs) {
    if (now.at - before.at < ctx.source.stableSeconds * 1000) return "wait";
    await update(ctx, { step: "importing", reason: null });
    return "next";
  }
  await update(ctx, {
    observed: JSON.stringify(now),
    reason: before ? `${ctx.source.path} changed within ${ctx.source.stableSeconds} s: waiting until it stays unchanged.` : `Checking that ${ctx.source.path} is not still being written.`,
  });
  return "wait";
}

async function importing(ctx: Ctx): Promise<Step> {
  const target = await targetsService(ctx.db).requireTarget(ctx.source.computerId);
  let got;
  try {
    got = await registerPathOn(ctx.db, target, { projectId: ctx.s.projectId, path: ctx.source.path, encoding: "utf-8" });
  } catch (err) {
    if (isDomainError(err) && err.reason === "file_changed") {
      await update(ctx, { step: "observing", observed: null, reason: `${ctx.source.path} changed while it was copied: waiting until it stays unchanged.` });
      return "wait";
    }
    throw err;
  }
  const repo = schedulesRepository(ctx.db);
  const specHash = specHashOf(ctx.spec);
  const last = await repo.lastStarted(ctx.s.id);
  if (last && last.dataSha256 === got.snapshotSha256 && last.specHash === specHash) {
    await update(ctx, { dataSha256: got.snapshotSha256, datasetId: got.datasetId });
    await decide(ctx, "no_op", `Data unchanged since run ${last.seq}.`);
    return "done";
  }
  try {
    await update(ctx, {
      runKey: `${ctx.s.id}:${ctx.run.slotAt.toISOString()}:${got.snapshotSha256}`,
      dataSha256: got.snapshotSha256,
      datasetId: got.datasetId,
      specHash,
      step: "profiling",
      reason: "Reading the new data.",
    });
  } catch (err) {
    if ((err as { code?: string }).code !== "P2002") throw err;
    await decide(ctx, "no_op", "This slot already ran on this data.");
    return "done";
  }
  return "next";
}

async function profiling(ctx: Ctx): Promise<Step> {
  const d = await datasetsService(ctx.db).get(ctx.run.datasetId!);
  if (d.status === "profiling") return "wait";
  if (d.status === "failed") {
    await decide(ctx, "refused", `The data could not be read: ${d.error?.message ?? "unknown error"}`);
    return "done";
  }
  if (!d.columns.some((c) => c.name === ctx.spec.target)) {
    await decide(ctx, "refused", `The file has no column "${ctx.spec.target}" (columns: ${d.columns.map((c) => c.name).join(", ")}).`);
    return "done";
  }
  const rows = d.rowCount ?? 0;
  await update(ctx, { rows });
  const last = await schedulesRepository(ctx.db).lastStarted(ctx.s.id);
  if (ctx.s.minNewRows > 0 && last?.rows != null && rows - last.rows < ctx.s.minNewRows) {
    await decide(ctx, "no_op", `${Math.max(0, rows - last.rows)} new rows since run ${last.seq}; the schedule waits for ${ctx.s.minNewRows}.`);
    return "done";
  }
  await datasetsService(ctx.db).startChecks({ id: d.id, target: ctx.spec.target });
  await update(ctx, { step: "checking", reason: "Checking the data." });
  return "next";
}

async function checking(ctx: Ctx): Promise<Step> {
  const checks = await datasetsService(ctx.db).getChecks({ id: ctx.run.datasetId!, target: ctx.spec.target });
  if (!checks || checks.status === "running") return "wait";
  if (checks.status === "failed" || !checks.result) {
    await decide(ctx, "refused", `The data checks failed: ${checks.error?.message ?? "no result"}`);
    return "done";
  }
  const cap = await capReached(ctx.db, ctx.s, budgetMinutesOf(ctx.spec));
  if (cap) {
    await decide(ctx, "refused", cap.words);
    await finishAtCap(ctx.db, ctx.s, cap);
    return "done";
  }
  await update(ctx, { step: "starting", budgetMinutes: budgetMinutesOf(ctx.spec) });
  return "next";
}

async function starting(ctx: Ctx): Promise<Step> {
  const { db, s, run, spec } = ctx;
  const checks = (await datasetsService(db).getChecks({ id: run.datasetId!, target: spec.target }))!.result!;
  const chosen = applyRecommendedActions(checks.issues, spec.target);
  const dataIssues = checks.issues.map((i) => ({ code: i.code, columns: i.columns, severity: i.severity }));
  const common = { projectId: s.projectId, datasetId: run.datasetId!, targetId: ctx.source.computerId, name: `${s.name} · run ${run.seq}` };
  const minutes = budgetMinutesOf(spec);
  let started: { experimentId?: string; searchId?: string };
  if (spec.mode === "quick") {
    const exp = await experimentsService(db).start({
      ...common,
      opId: `schedule-run:${run.id}`,
      settings: {
        target: spec.target,
        task: checks.task,
        metric: checks.metric,
        positiveClass: checks.positiveClass,
        excludeColumns: chosen.excludeColumns,
        split: chosen.split,
        mode: "quick",
        maxMinutes: minutes,
        appliedActions: chosen.appliedActions,
        dataIssues,
      },
    });
    started = { experimentId: exp.id };
  } else {
    const trials = spec.maxTrials ?? 10;
    const search = await searchesService(db).start(
      {
        ...common,
        opId: `schedule-run:${run.id}`,
        target: spec.target,
        task: checks.task,
        metric: checks.metric,
        positiveClass: checks.positiveClass,
        excludeColumns: chosen.excludeColumns,
        split: chosen.split,
        budget: { maxTrials: trials, maxWallMinutes: minutes, perTrialMinutes: Math.max(1, minutes / Math.max(1, Math.min(trials, 4))) },
      },
      principalOf(s),
    );
    started = { searchId: search.id };
  }
  await update(ctx, { outcome: "started", step: null, ...started, reason: `Training on ${run.rows ?? "the"} rows of ${ctx.source.path}.` });
  return "done";
}
