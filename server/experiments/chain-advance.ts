/**
 * Moves one experiment's chain forward: admits every step whose inputs exist, follows
 * its jobs' states, delivers cancellation, and settles the experiment when the chain
 * ends. Idempotent: step jobs have deterministic operation ids, so running it twice, or
 * again after a restart, never starts a step twice. It starts nothing for a step whose
 * job exists; it only starts the next steps of a chain whose earlier steps succeeded.
 */
import { holdoutBlobsFor, pinnedHoldoutsOf } from "@/server/experiments/pinned-holdouts";
import { ZTableFormat } from "@/contracts/recipes";
import type { Db } from "@/server/db/client";
import { absentWhenNotFound, isDomainError } from "@/server/errors";
import { ensureEnvironment } from "@/server/jobs/environments";
import { isActive } from "@/server/jobs/job-state";
import { jobsService } from "@/server/jobs/jobs.service";
import { targetsService } from "@/server/targets/targets.service";
import { datasetsService, ensureBlobOn } from "@/server/datasets";
import { freeCpus, opIdToAdmit, stepJobs, type StepJob } from "./chain-jobs";
import { budgetNote, slurmQueueSeconds } from "./chain-budget";
import { stepFailureReason } from "./failure-words";
import { phaseOf, readySteps, type AnyPipeline, type ChainBase } from "./pipeline";
import { LORA } from "./pipelines/lora";
import { TABULAR } from "./pipelines/tabular";
import { TRIAL } from "./pipelines/tabular-trial";
import { BASELINE_TEST } from "./pipelines/baseline-test";
import { deriveStatus, experimentTransition, isExperimentTerminal } from "./experiment-state";
import { experimentsRepository, type ExperimentRow } from "./experiments.repository";

/** The pipeline an experiment runs, by the kind recorded at start (EXPERIMENT_KINDS). */
export function pipelineOf(exp: ExperimentRow): AnyPipeline {
  switch (exp.kind) {
    case "finetune":
      return LORA;
    case "search_trial":
      return TRIAL;
    case "search_baseline":
      return BASELINE_TEST;
    default:
      return TABULAR;
  }
}

type Context = ChainBase<string>;

async function buildContext(db: Db, exp: ExperimentRow, pipeline: AnyPipeline): Promise<Context | { waiting: string } | { failed: string }> {
  const repo = experimentsRepository(db);
  // Through the datasets service: reading settles a profile job that ended meanwhile.
  const dataset = await datasetsService(db).get(exp.datasetId).catch(absentWhenNotFound);
  if (!dataset) return { failed: "Its dataset was deleted." };
  if (dataset.status === "failed") return { failed: `Its dataset could not be read: ${dataset.error?.message ?? "profile failed"}` };
  const table = pipeline.dataset === "table";
  if (dataset.status !== "ready" || (table && !dataset.datasetFormat)) return { waiting: "Waiting for the dataset profile." };
  const format = table ? ZTableFormat.safeParse(dataset.datasetFormat) : null;
  if (format && !format.success) return { failed: `Its dataset's table format is not one the recipes read: ${format.error.issues.map((i) => i.message).join("; ")}` };
  const project = await repo.project(exp.projectId);
  const target = await targetsService(db).get(exp.targetId).catch(absentWhenNotFound);
  const cpus = Math.max(1, Math.floor(target?.probe?.capacity.cpus ?? 1));
  const elapsed = (Date.now() - exp.startedAt.getTime()) / 1000;
  const base: ChainBase<string> = {
    experimentId: exp.id,
    opId: exp.opId,
    projectName: project?.name ?? "",
    experimentName: exp.name,
    datasetName: dataset.name,
    snapshotSha256: exp.snapshotSha256,
    targetId: exp.targetId,
    datasetFormat: format?.data ?? null,
    cpus,
    freeCpus: 0,
    remainingSeconds: exp.budgetSeconds - elapsed,
    datasetBytes: dataset.bytes,
    outputs: {},
    holdouts: pinnedHoldoutsOf(exp.holdouts),
  };
  return pipeline.context(base, exp.settings);
}

async function cancelActive(db: Db, jobs: Map<string, StepJob>, exclusive: Set<string>): Promise<number> {
  let active = 0;
  for (const j of jobs.values()) {
    if (!isActive(j.state)) continue;
    active++;
    // A shared step (a split another experiment also uses) is not this experiment's to stop.
    if (exclusive.has(j.opId)) await jobsService(db).cancelJob(j.id);
  }
  return active;
}

export async function advanceExperiment(db: Db, id: string): Promise<void> {
  const repo = experimentsRepository(db);
  const exp = await repo.find(id);
  if (!exp || isExperimentTerminal(exp.status)) return;
  const pipeline = pipelineOf(exp);
  const ctx = await buildContext(db, exp, pipeline);
  if ("failed" in ctx) {
    await experimentTransition(db, exp, "failed", { reason: ctx.failed });
    return;
  }
  if ("waiting" in ctx) {
    if (exp.cancelRequestedAt) await experimentTransition(db, exp, "cancelled", { reason: "cancelled before training started" });
    else await repo.setNote(exp.id, ctx.waiting);
    return;
  }
  const jobs = await stepJobs(db, pipeline.steps, ctx);
  ctx.remainingSeconds += slurmQueueSeconds(jobs.get(pipeline.budgetedStep), new Date());
  const own = new Set([...jobs.values()].filter((j) => j.opId.startsWith(`${exp.opId}:`)).map((j) => j.opId));
  for (const [step, j] of jobs) {
    if (j.state === "succeeded" && j.outputSha256) ctx.outputs[step] = j.outputSha256;
  }
  await pipeline.learn(db, ctx, jobs);
  const running = new Set([...jobs].filter(([, j]) => isActive(j.state)).map(([step]) => step));
  await repo.setPhase(exp.id, phaseOf(pipeline.steps, new Set(jobs.keys()), running));

  if (exp.cancelRequestedAt) {
    const active = await cancelActive(db, jobs, own);
    if (active === 0) await experimentTransition(db, exp, "cancelled", { reason: "cancelled by the user" });
    return;
  }

  const states = [...jobs.values()].map((j) => j.state);
  const complete = pipeline.steps.every((s) => ctx.outputs[s.name] !== undefined);
  const status = deriveStatus(states, complete);
  if (status === "succeeded") {
    const results = {
      ...(await pipeline.collect(db, exp, jobs)),
      budgetNote: budgetNote({
        budgetStartedAt: exp.startedAt,
        budgetSeconds: exp.budgetSeconds,
        trainEndedAt: jobs.get(pipeline.budgetedStep)?.endedAt ?? null,
        endedAt: new Date(),
      }),
    };
    await experimentTransition(db, exp, "succeeded", {
      phase: "comparing",
      reason: null,
      results: JSON.stringify(results),
      exportSha256: results.export?.sha256,
      exportBytes: results.export ? BigInt(results.export.bytes) : undefined,
    });
    return;
  }
  if (status !== "running") {
    const bad = [...jobs.entries()].find(([, j]) => j.state === status);
    const label = pipeline.steps.find((s) => s.name === bad?.[0])?.label ?? bad?.[0];
    const why = bad ? stepFailureReason(label!, bad[1]) : status;
    if (status !== "unknown") await cancelActive(db, jobs, own);
    await experimentTransition(db, exp, status, { reason: why });
    return;
  }
  if (exp.status === "unknown") await experimentTransition(db, exp, "running", { reason: "its jobs answer again" });

  const ready = readySteps(pipeline, new Set(jobs.keys()), ctx.outputs);
  if (ready.length === 0) return;
  // Before the first job, every environment the chain will need is made ready: building one
  // (the first training on a computer) never counts against the budget, which starts with
  // the first job. A build already in flight (started at enrolment, or by another
  // experiment) is joined, not started again.
  const needed = jobs.size === 0 ? pipeline.steps.map((s) => s.recipe) : ready.map((s) => s.recipe);
  for (const recipe of new Set(needed)) {
    const env = await ensureEnvironment(exp.targetId, recipe, db);
    if (!env.ready) {
      await repo.setNote(exp.id, `Setting up the training environment (first time on this computer: the ${recipe} tools, job ${env.job?.id ?? "?"}); the time budget starts after it.`);
      return;
    }
  }
  if (jobs.size === 0) {
    await repo.markBudgetStart(exp.id);
    ctx.remainingSeconds = exp.budgetSeconds;
  } else if (ctx.remainingSeconds <= 0 && !ctx.outputs[pipeline.budgetedStep]) {
    // The budget bounds the work up to a trained model; after that, nothing is thrown away.
    await cancelActive(db, jobs, own);
    await experimentTransition(db, exp, "timed_out", { reason: `the ${Math.round(exp.budgetSeconds / 60)} minute budget ran out before training finished` });
    return;
  }
  const target = await targetsService(db).requireTarget(exp.targetId);
  // The dataset lives on This computer; jobs on a server read it from that server's store,
  // so it is copied there first (said only while bytes move: nothing moves on This computer).
  let lastNote = 0;
  const holdoutBlobs = holdoutBlobsFor(pipeline.dataset, ctx.holdouts);
  for (const blob of [exp.snapshotSha256, ...(pipeline.blobs?.(ctx) ?? []), ...holdoutBlobs]) {
    await ensureBlobOn(db, target, blob, (sent, total) => {
      if (Date.now() - lastNote < 2000) return;
      lastNote = Date.now();
      void repo.setNote(exp.id, `Copying the data to ${target.name}: ${Math.round((100 * sent) / Math.max(1, total))}%`).catch((err: unknown) => console.error(`experiment ${exp.id}: progress note not saved: ${String(err)}`));
    });
  }
  await repo.setNote(exp.id, null);
  ctx.freeCpus = await freeCpus(db, exp.targetId, ctx.cpus);
  for (const spec of ready) {
    const sharedState = spec.sharedOpId
      ? (await repo.jobsByOpIds([spec.sharedOpId(ctx)]))[0]?.state
      : undefined;
    await jobsService(db).admitJob({
      opId: opIdToAdmit(spec, ctx, sharedState),
      targetId: exp.targetId,
      recipe: spec.recipe,
      job: spec.job,
      input: spec.input(ctx),
      resources: { cpus: spec.cpus(ctx), ramGb: 1 },
      deadlineSeconds: spec.deadlineSeconds(ctx),
      experimentId: exp.id,
      step: spec.name,
      slurmArray: spec.slurmArray?.(ctx) ?? undefined,
    });
  }
}

/** advanceExperiment, one at a time per experiment, reporting instead of throwing. */
const RUNNING = Symbol.for("trainyard.experimentAdvances");
export function scheduleAdvance(db: Db, id: string, log: (l: string) => void = (l) => console.error(l)): Promise<void> {
  const g = globalThis as { [RUNNING]?: Map<string, Promise<void>> };
  const map = (g[RUNNING] ??= new Map());
  const prev = map.get(id) ?? Promise.resolve();
  const next = prev.then(() =>
    advanceExperiment(db, id).catch(async (err: unknown) => {
      // The first line that says something: Prisma's messages start with a blank line.
      const text = err instanceof Error ? err.message : String(err);
      const message = text.split("\n").map((l) => l.trim()).find((l) => l.length > 0) ?? (err instanceof Error ? err.name : "unknown error");
      if (isDomainError(err) && (err.code === "BAD_INPUT" || err.code === "NOT_FOUND")) {
        const exp = await experimentsRepository(db).find(id);
        if (exp && !isExperimentTerminal(exp.status)) await experimentTransition(db, exp, "failed", { reason: message });
        return;
      }
      log(`experiment ${id}: ${message}`);
      await experimentsRepository(db)
        .setNote(id, `Retrying: ${message}`)
        .catch((e: unknown) => log(`experiment ${id}: its note could not be written: ${(e as Error).message}`));
    }),
  );
  map.set(id, next);
  void next.finally(() => {
    if (map.get(id) === next) map.delete(id);
  });
  return next;
}
