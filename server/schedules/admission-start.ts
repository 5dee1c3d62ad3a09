/**
 * From the run's dataset to a started run: profiling (the file is read; a tabular run needs
 * its target column, a fine-tune a file of examples; the new-rows minimum), checking (a
 * tabular run's data checks; the lifetime caps), starting (a Quick baseline, a search or a
 * LoRA fine-tune, with the data checks' recommended actions applied as the CLI applies them,
 * under an opId that is the run's id).
 */
import { applyRecommendedActions } from "@/contracts/vocabulary/recommended-actions";
import type { FineTuneSpec, TabularSpec } from "@/contracts/schedules/schedules";
import { trialMinutesFor } from "@/contracts/searches/search-spec";
import { datasetsService } from "@/server/datasets/datasets.service";
import { experimentsService } from "@/server/experiments/experiments.service";
import { fineTuneService } from "@/server/finetune/finetune.service";
import { searchesService } from "@/server/searches/searches.service";
import { budgetMinutesOf, decide, updateRun, type AdmissionCtx, type Step } from "./admission";
import { capReached, finishAtCap } from "./caps";
import { principalOf } from "./schedule-principal";
import { schedulesRepository } from "./schedules.repository";

const sourceWords = (ctx: AdmissionCtx) => (ctx.source.kind === "path" ? ctx.source.path : `dataset "${ctx.source.name}"`);

export async function profiling(ctx: AdmissionCtx): Promise<Step> {
  const d = await datasetsService(ctx.db).get(ctx.run.datasetId!);
  if (d.status === "profiling") return "wait";
  if (d.status === "failed") {
    await decide(ctx, "refused", `The data could not be read: ${d.error?.message ?? "unknown error"}`);
    return "done";
  }
  const spec = ctx.spec;
  if (spec.mode === "finetune" && d.kind !== "examples") {
    await decide(ctx, "refused", `A fine-tune schedule reads a file of examples (.jsonl); ${sourceWords(ctx)} is a table.`);
    return "done";
  }
  if (spec.mode !== "finetune" && !d.columns.some((c) => c.name === spec.target)) {
    await decide(ctx, "refused", `The data has no column "${spec.target}" (columns: ${d.columns.map((c) => c.name).join(", ")}).`);
    return "done";
  }
  const rows = d.rowCount ?? 0;
  await updateRun(ctx, { rows });
  const last = await schedulesRepository(ctx.db).lastStarted(ctx.s.id);
  if (ctx.s.minNewRows > 0 && last?.rows != null && rows - last.rows < ctx.s.minNewRows) {
    await decide(ctx, "no_op", `${Math.max(0, rows - last.rows)} new rows since run ${last.seq}; the schedule waits for ${ctx.s.minNewRows}.`);
    return "done";
  }
  if (spec.mode !== "finetune") await datasetsService(ctx.db).startChecks({ id: d.id, target: spec.target });
  await updateRun(ctx, { step: "checking", reason: "Checking the data." });
  return "next";
}

export async function checking(ctx: AdmissionCtx): Promise<Step> {
  const spec = ctx.spec;
  if (spec.mode !== "finetune") {
    const checks = await datasetsService(ctx.db).getChecks({ id: ctx.run.datasetId!, target: spec.target });
    if (!checks || checks.status === "running") return "wait";
    if (checks.status === "failed" || !checks.result) {
      await decide(ctx, "refused", `The data checks failed: ${checks.error?.message ?? "no result"}`);
      return "done";
    }
  }
  const cap = await capReached(ctx.db, ctx.s, budgetMinutesOf(spec));
  if (cap) {
    await decide(ctx, "refused", cap.words);
    await finishAtCap(ctx.db, ctx.s, cap);
    return "done";
  }
  await updateRun(ctx, { step: "starting", budgetMinutes: budgetMinutesOf(spec) });
  return "next";
}

export async function starting(ctx: AdmissionCtx): Promise<Step> {
  const spec = ctx.spec;
  const started = spec.mode === "finetune" ? await startFineTune(ctx, spec) : await startTabular(ctx, spec);
  await updateRun(ctx, { outcome: "started", step: null, ...started, reason: `Training on ${ctx.run.rows ?? "the"} ${spec.mode === "finetune" ? "examples" : "rows"} of ${sourceWords(ctx)}.` });
  return "done";
}

const common = (ctx: AdmissionCtx) => ({
  opId: `schedule-run:${ctx.run.id}`,
  projectId: ctx.s.projectId,
  datasetId: ctx.run.datasetId!,
  targetId: ctx.source.computerId,
  name: `${ctx.s.name} · run ${ctx.run.seq}`,
});

async function startFineTune(ctx: AdmissionCtx, spec: FineTuneSpec): Promise<{ experimentId: string }> {
  const { basePath, mode: _mode, ...settings } = spec;
  const view = await fineTuneService(ctx.db).start({ ...common(ctx), settings: { base: { kind: "path", path: basePath }, ...settings, maxMinutes: budgetMinutesOf(spec) } });
  return { experimentId: view.experiment.id };
}

async function startTabular(ctx: AdmissionCtx, spec: TabularSpec): Promise<{ experimentId: string } | { searchId: string }> {
  const { db, run } = ctx;
  const checks = (await datasetsService(db).getChecks({ id: run.datasetId!, target: spec.target }))!.result!;
  const chosen = applyRecommendedActions(checks.issues, spec.target);
  const minutes = budgetMinutesOf(spec);
  const chosenData = { target: spec.target, task: checks.task, metric: checks.metric, positiveClass: checks.positiveClass, excludeColumns: chosen.excludeColumns, split: chosen.split };
  if (spec.mode === "quick") {
    const dataIssues = checks.issues.map((i) => ({ code: i.code, columns: i.columns, severity: i.severity }));
    const exp = await experimentsService(db).start({ ...common(ctx), settings: { ...chosenData, mode: "quick", maxMinutes: minutes, appliedActions: chosen.appliedActions, dataIssues } });
    return { experimentId: exp.id };
  }
  const trials = spec.maxTrials ?? 10;
  const budget = { maxTrials: trials, maxWallMinutes: minutes, perTrialMinutes: trialMinutesFor(minutes, trials) };
  const search = await searchesService(db).start({ ...common(ctx), ...chosenData, budget }, principalOf(ctx.s));
  return { searchId: search.id };
}
