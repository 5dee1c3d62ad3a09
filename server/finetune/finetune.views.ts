/**
 * What finetune.get answers (FineTuneView): the experiment, the step now running, each
 * finished step's facts as soon as it has them (base, checks, preflight), live training
 * from the train job's events, the receipt and the export. Once the chain succeeded the
 * stored results are read instead of the jobs' outputs.
 */
import type { z } from "zod";
import type { RecipeOutputSchema } from "@/contracts/recipes";
import { ZLoraBase, ZLoraChecks, ZLoraPreflight, ZLoraReceipt, ZLoraTraining } from "@/contracts/recipes";
import type { Db } from "@/server/db/client";
import { parseStoredJson } from "@/server/db/stored-json";
import { ZJobSlurm } from "@/contracts/worker";
import { ZPlacement } from "@/server/experiments/placement";
import { isDomainError } from "@/server/errors";
import { isActive } from "@/server/jobs/job-state";
import { firstWaiting } from "@/server/jobs/waiting-words";
import { readOutput } from "@/server/jobs/read-output";
import { targetsRepository } from "@/server/targets/targets.repository";
import type { StepJob } from "@/server/experiments/chain-jobs";
import { experimentsRepository, type ExperimentRow } from "@/server/experiments/experiments.repository";
import { isExperimentTerminal } from "@/server/experiments/experiment-state";
import { LORA } from "@/server/experiments/pipelines/lora";
import { NO_SLURM_STOPS, ZFineTuneSettings, type FineTuneView, type LossPoint } from "./finetune.schema";
import { parseFineTuneResults, withoutFiles } from "@/server/experiments/pipelines/lora-results";
import { fineTuneJobs, trainedAdapterOf, type FineTuneJobs } from "@/server/experiments/pipelines/lora-adapter";
import { liveTraining } from "./training-progress";
import { explainFailure, recipeError } from "@/server/experiments/failure-words";
import { experimentOutcome } from "@/server/experiments/outcome-view";
import { failedStepCode, retryOf, runError, type FailedStep, type RunError } from "@/server/experiments/run-error";

/** Train job states a new attempt can continue from (the worker's checkpoints ref accepts these). */
const STOPPED = new Set(["failed", "cancelled", "timed_out"]);

export { fineTuneJobs, trainedAdapterOf, type FineTuneJobs };

/** A finished step's JSON output; null while it has none or while its computer does not answer. */
async function outputOf<S extends z.ZodType>(db: Db, job: StepJob | undefined, file: string, schema: S & RecipeOutputSchema): Promise<z.output<S> | null> {
  if (!job || job.state !== "succeeded" || !job.outputSha256) return null;
  try {
    return await readOutput(db, job, file, schema);
  } catch (err) {
    if (isDomainError(err) && err.code === "UNAVAILABLE") return null;
    throw err;
  }
}

/**
 * Whether Resume can continue this experiment's training: its train job stopped after it
 * began, and no attempt has resumed it yet (a second one would train the same steps again
 * from the same checkpoint).
 */
export function isResumable(e: ExperimentRow, train: StepJob | undefined, resumedBy: ExperimentRow | null): boolean {
  if (!isExperimentTerminal(e.status) || e.status === "succeeded" || !train || resumedBy) return false;
  return STOPPED.has(train.state) && train.reason !== "bad_input" && Boolean(train.workerJobId && train.startedAt);
}

/** The running step in words: the earliest active job, else the first step not started. */
function currentStep(e: ExperimentRow, jobs: FineTuneJobs): FineTuneView["step"] {
  if (isExperimentTerminal(e.status)) return null;
  const spec = LORA.steps.find((s) => {
    const j = jobs.get(s.name);
    return j ? isActive(j.state) : true;
  });
  return spec ? { name: spec.name, label: spec.label } : null;
}

/** Why a fine-tune failed or timed out: the first failed step's explanation, for every surface (run-error.ts). */
function fineTuneError(e: ExperimentRow, jobs: FineTuneJobs): RunError | null {
  let failed: FailedStep | null = null;
  for (const s of LORA.steps) {
    const j = jobs.get(s.name);
    const error = j ? recipeError(j.report) : null;
    const view = j ? explainFailure({ stepLabel: s.label, state: j.state, reason: j.reason, detail: j.detail, error, kind: "finetune" }) : null;
    if (j && view) {
      failed = { label: s.label, view, code: failedStepCode(j, error?.code), retry: retryOf(error) };
      break;
    }
  }
  const running = LORA.steps.find((s) => {
    const j = jobs.get(s.name);
    return j ? isActive(j.state) : false;
  });
  const outcome = experimentOutcome(e.status, e.reason, failed && { stepLabel: failed.label, view: failed.view }, e.budgetSeconds, running?.label ?? null);
  return runError(e.status, outcome, failed);
}

/** The earlier attempt's curve up to where this one resumed, so a resumed curve continues. */
async function earlierCurve(db: Db, e: ExperimentRow, resumedFromStep: number | null): Promise<{ train: LossPoint[]; eval: LossPoint[] }> {
  if (!e.resumedFromId || resumedFromStep === null) return { train: [], eval: [] };
  const stopped = await experimentsRepository(db).find(e.resumedFromId);
  const train = stopped ? (await fineTuneJobs(db, stopped)).get("train") : undefined;
  if (!stopped || !train) return { train: [], eval: [] };
  const live = await liveTraining(db, train);
  const upTo = (p: LossPoint) => p.step <= resumedFromStep;
  const before = await earlierCurve(db, stopped, live.resumedFromStep);
  return { train: [...before.train, ...live.trainLoss].filter(upTo), eval: [...before.eval, ...live.evalLoss].filter(upTo) };
}

async function trainingView(db: Db, e: ExperimentRow, train: StepJob | undefined, stored: z.infer<typeof ZLoraTraining> | null): Promise<FineTuneView["training"]> {
  if (!train) return null;
  const final = stored ?? (await outputOf(db, train, "training.json", ZLoraTraining));
  const live = await liveTraining(db, train);
  const slurmStops = { ...NO_SLURM_STOPS };
  for (const a of parseStoredJson(ZJobSlurm, train.slurm)?.attempts ?? []) slurmStops[a.reason] += 1;
  if (final) {
    return {
      step: final.steps,
      plannedSteps: final.plannedSteps,
      trainLoss: final.trainLoss,
      evalLoss: final.evalLoss,
      tokensPerSecond: final.tokensPerSecond,
      etaSeconds: null,
      resumedFromStep: final.resumedFromStep,
      slurmStops,
      final,
    };
  }
  const earlier = await earlierCurve(db, e, live.resumedFromStep);
  return {
    step: live.step,
    plannedSteps: live.plannedSteps,
    trainLoss: [...earlier.train, ...live.trainLoss],
    evalLoss: [...earlier.eval, ...live.evalLoss],
    tokensPerSecond: live.tokensPerSecond,
    etaSeconds: isActive(train.state) ? live.etaSeconds : null,
    resumedFromStep: live.resumedFromStep,
    slurmStops,
    final: null,
  };
}

export async function toFineTuneView(db: Db, e: ExperimentRow): Promise<FineTuneView> {
  const settings = ZFineTuneSettings.parse(JSON.parse(e.settings));
  const results = parseFineTuneResults(e.results);
  const jobs = await fineTuneJobs(db, e);
  const target = await targetsRepository(db).find(e.targetId);
  const repo = experimentsRepository(db);
  const [resumedFrom, resumedBy] = await Promise.all([e.resumedFromId ? repo.find(e.resumedFromId) : null, repo.resumedBy(e.id)]);
  const waiting = isExperimentTerminal(e.status) ? null : await firstWaiting(db, LORA.steps.map((s) => jobs.get(s.name)));
  const [base, checks, preflight, receipt, training] = await Promise.all([
    results ? results.base : outputOf(db, jobs.get("import_base"), "base.json", ZLoraBase).then((b) => b && withoutFiles(b)),
    results?.checks ?? outputOf(db, jobs.get("check_data"), "checks.json", ZLoraChecks),
    results?.preflight ?? outputOf(db, jobs.get("preflight"), "preflight.json", ZLoraPreflight),
    results?.receipt ?? outputOf(db, jobs.get("evaluate"), "receipt.json", ZLoraReceipt),
    trainingView(db, e, jobs.get("train"), results?.training ?? null),
  ]);
  return {
    experiment: {
      id: e.id,
      projectId: e.projectId,
      name: e.name,
      status: e.status,
      phase: e.phase,
      reason: e.reason,
      progressNote: e.progressNote,
      targetId: e.targetId,
      targetName: target?.name ?? "a deleted computer",
      placement: parseStoredJson(ZPlacement, e.placement),
      datasetId: e.datasetId,
      evalDatasetId: e.evalDatasetId,
      settings,
      startedAt: e.startedAt.toISOString(),
      endedAt: e.endedAt?.toISOString() ?? null,
    },
    step: currentStep(e, jobs),
    waiting,
    steps: LORA.steps.map((s) => {
      const j = jobs.get(s.name);
      return { step: s.name, label: s.label, jobId: j?.id ?? null, state: j?.state ?? null };
    }),
    error: fineTuneError(e, jobs),
    base,
    checks,
    preflight,
    training,
    receipt,
    export: results && e.exportSha256 ? { sha256: e.exportSha256, bytes: results.export.bytes, downloadUrl: `/api/experiments/${encodeURIComponent(e.id)}/export` } : null,
    resumable: isResumable(e, jobs.get("train"), resumedBy),
    resumedFrom: resumedFrom && { id: resumedFrom.id, name: resumedFrom.name },
    resumedBy: resumedBy && { id: resumedBy.id, name: resumedBy.name },
  };
}
