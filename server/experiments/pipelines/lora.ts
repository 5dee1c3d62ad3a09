/**
 * The fine-tuning pipeline (issue 14): import the base model → check the examples against
 * its tokenizer → preflight the device, memory and time → train a LoRA adapter → score base
 * vs adapter on the held-out examples (the trusted evaluation-lm recipe) → export the verified
 * archive. Each step is one job of the llm-lora recipe (scoring: evaluation-lm) whose input
 * names earlier outputs by SHA-256, built only from the recipes' contracts. Data for the
 * generic chain runner (../pipeline.ts), like tabular.ts.
 */
import { createHash } from "node:crypto";
import type { InputOf } from "@/contracts/recipes";
import { checkpointsRef, sha256Ref } from "@/contracts/worker/refs";
import type { Db } from "@/server/db/client";
import { examplesHoldouts } from "@/server/experiments/pinned-holdouts";
import { ZFineTuneSettings, type TBaseModelSource, type TFineTuneSettings } from "./lora-settings";
import { collectFineTune, type FineTuneResults } from "./lora-results";
import { ownOpId, type StepJob } from "../chain-jobs";
import { evaluationDeadlineSeconds, preparingDeadlineSeconds, trainingDeadlineSeconds, trainingTimeLimitSeconds } from "../chain-budget";
import { experimentsRepository } from "../experiments.repository";
import { stepOutputRef, type ChainBase, type Pipeline, type StepSpec } from "../pipeline";
import { LORA_STEPS, type LoraStep } from "./lora-steps";
import { reusableMeasurement } from "./lora-measurement";
import type { ReusedMeasurement } from "@/contracts/recipes/llm-lora";

export { LORA_STEPS, type LoraStep };

export interface LoraContext extends ChainBase<LoraStep> {
  settings: TFineTuneSettings;
  /** Learned from the experiment row: the held-out dataset's snapshot, when it has one. */
  evalSnapshotSha256: string | null;
  /** Learned from the experiment row: `checkpoints:<worker job id>` of the stopped attempt it resumes. */
  resumeFrom: string | null;
  /** Learned once check_data is done: an earlier preflight's measurement the preflight may stand on (lora-measurement.ts). */
  measured: ReusedMeasurement | null;
}

type Step = StepSpec<LoraStep, LoraContext>;

const out = (c: LoraContext, s: LoraStep) => stepOutputRef(c, s);

/**
 * A resumed experiment's opId is `<stopped one's opId>:resume:next`, one per stopped
 * experiment (fine-tune service: it is resumed once): the first attempt's opId is its root,
 * whose checks and preflight every attempt reuses, so a resumed attempt trains on the same
 * split and goes straight to training.
 */
export const RESUME_MARK = ":resume:";
export const resumedOpId = (stoppedOpId: string) => `${stoppedOpId}${RESUME_MARK}next`;
const firstAttempt = (opId: string) => opId.split(RESUME_MARK)[0]!;
const firstAttemptStep = (step: LoraStep) => (c: LoraContext) => ownOpId(firstAttempt(c.opId), step);

/** The reserved holdouts' files, only when there are any (a run without holdouts asks what it always did). */
const holdoutsInput = (shas: string[]) => (shas.length ? { holdouts: shas.map(sha256Ref) } : {});

const hashOf = (v: unknown) => createHash("sha256").update(JSON.stringify(v)).digest("hex");

/**
 * What names one base model on one computer (an import's output lives in that computer's
 * store): the uploaded bytes, or the path. A path is keyed by itself, so a folder rewritten
 * in place after an import keeps the first import; its base.json records the snapshot hash
 * that was trained on either way.
 */
export function baseIdentity(base: TBaseModelSource, targetId: string): string {
  switch (base.kind) {
    case "path":
      return hashOf([targetId, "path", base.path]);
    case "gguf_upload":
      return hashOf([targetId, "gguf", base.sha256]);
    case "folder_upload":
      return hashOf([targetId, "folder", [...base.files].sort((a, b) => a.path.localeCompare(b.path)).map((f) => [f.path, f.sha256])]);
  }
}

/** The blobs of This computer an uploaded base is made of (a server needs them in its store). */
export function baseBlobs(base: TBaseModelSource): string[] {
  switch (base.kind) {
    case "path":
      return [];
    case "gguf_upload":
      return [base.sha256];
    case "folder_upload":
      return [...new Set(base.files.map((f) => f.sha256))];
  }
}

/** The base model in words: the folder or file name, as import_base names it by default. */
export function baseModelName(base: TBaseModelSource): string {
  switch (base.kind) {
    case "path":
      return base.path.replace(/\/+$/, "").split("/").pop() || base.path;
    case "gguf_upload":
      return base.fileName;
    case "folder_upload":
      return base.name;
  }
}

function importInput(base: TBaseModelSource): InputOf<"llm-lora", "import_base"> {
  switch (base.kind) {
    case "path":
      return { source: base.path };
    case "gguf_upload":
      return { source: sha256Ref(base.sha256), name: base.fileName.replace(/\.gguf$/i, "") };
    case "folder_upload":
      return { files: base.files.map((f) => ({ path: f.path, file: sha256Ref(f.sha256) })), name: base.name };
  }
}

/** Training's time limit in minutes: what the budget leaves after the evaluation and export reserve. */
const trainingMinutes = (c: LoraContext) => trainingTimeLimitSeconds(c.settings.maxMinutes * 60, c.remainingSeconds) / 60;

/** The LoRA and run-length fields preflight and train read alike. */
function loraRun(c: LoraContext): InputOf<"llm-lora", "preflight"> {
  const s = c.settings;
  return {
    model: out(c, "import_base"),
    data: out(c, "check_data"),
    device: s.device,
    maxLength: s.maxLength,
    rank: s.rank,
    ...(s.alpha !== undefined ? { alpha: s.alpha } : {}),
    batchSize: s.batchSize,
    epochs: s.epochs,
    ...(s.maxSteps !== undefined ? { maxSteps: s.maxSteps } : {}),
    maxMinutes: Math.max(0.05, trainingMinutes(c)),
  };
}

const preparing = (c: LoraContext) => preparingDeadlineSeconds(c.remainingSeconds);
// Scoring a language model twice (base, adapter) and generating is slower than scoring a
// table: at least 15 minutes, more with more data; never lost to the budget once trained.
const evaluating = (c: LoraContext) => Math.max(15 * 60, evaluationDeadlineSeconds(c.datasetBytes));
const oneCpu = () => 1;
// Torch steps take the computer's whole CPU capacity: they run one after another.
const allCpus = (c: LoraContext) => c.cpus;

const STEPS: readonly Step[] = [
  {
    name: "import_base",
    label: "Importing the base model",
    phase: "preparing_data",
    recipe: "llm-lora",
    job: "import_base",
    needs: [],
    sharedOpId: (c) => `lora-import:${baseIdentity(c.settings.base, c.targetId)}`,
    input: (c) => importInput(c.settings.base),
    deadlineSeconds: preparing,
    cpus: allCpus,
  },
  {
    name: "check_data",
    label: "Checking the examples",
    phase: "preparing_data",
    recipe: "llm-lora",
    job: "check_data",
    needs: ["import_base"],
    sharedOpId: firstAttemptStep("check_data"),
    input: (c) => ({
      model: out(c, "import_base"),
      data: sha256Ref(c.snapshotSha256),
      ...(c.evalSnapshotSha256 ? { eval: sha256Ref(c.evalSnapshotSha256) } : {}),
      evalFraction: c.settings.evalFraction,
      seed: c.settings.seed,
      maxLength: c.settings.maxLength,
      ...holdoutsInput(examplesHoldouts(c.holdouts)),
    }),
    deadlineSeconds: preparing,
    cpus: oneCpu,
  },
  {
    name: "preflight",
    label: "Checking the device, memory and time",
    phase: "preparing_data",
    recipe: "llm-lora",
    job: "preflight",
    needs: ["import_base", "check_data"],
    sharedOpId: firstAttemptStep("preflight"),
    input: (c) => ({
      ...loraRun(c),
      whenOverBudget: c.settings.fitToBudget ? "fewer_steps" : "refuse",
      ...(c.measured ? { measured: c.measured } : {}),
    }),
    deadlineSeconds: preparing,
    cpus: allCpus,
  },
  {
    name: "train",
    label: "Training the adapter",
    phase: "training",
    recipe: "llm-lora",
    job: "train",
    needs: ["import_base", "check_data", "preflight"],
    input: (c) => ({
      ...loraRun(c),
      learningRate: c.settings.learningRate,
      seed: c.settings.seed,
      preflight: out(c, "preflight"),
      ...(c.resumeFrom ? { resumeFrom: c.resumeFrom } : {}),
    }),
    deadlineSeconds: (c) => trainingDeadlineSeconds(c.settings.maxMinutes * 60, c.remainingSeconds),
    cpus: allCpus,
  },
  {
    name: "evaluate",
    label: "Scoring base and adapter",
    phase: "evaluating",
    // The trusted evaluator, not the training recipe: "better than base" comes only from its receipt.
    recipe: "evaluation-lm",
    job: "score",
    needs: ["import_base", "check_data", "train"],
    input: (c) => ({
      model: out(c, "import_base"),
      adapter: out(c, "train"),
      data: out(c, "check_data"),
      device: c.settings.device,
      maxLength: c.settings.maxLength,
      ...(c.settings.answerPattern ? { answerPattern: c.settings.answerPattern } : {}),
    }),
    deadlineSeconds: evaluating,
    cpus: allCpus,
  },
  {
    name: "export",
    label: "Packaging and verifying the adapter",
    phase: "comparing",
    recipe: "llm-lora",
    job: "export",
    needs: ["import_base", "check_data", "train", "evaluate"],
    input: (c) => ({
      model: out(c, "import_base"),
      adapter: out(c, "train"),
      receipt: out(c, "evaluate"),
      checks: out(c, "check_data"),
      name: c.experimentName.slice(0, 200),
    }),
    deadlineSeconds: evaluating,
    cpus: allCpus,
  },
];

/**
 * The held-out data and the attempt it resumes come from the experiment row (fixed at
 * start); a measurement to reuse is looked for once the preflight is ready to start.
 */
async function learn(db: Db, c: LoraContext, jobs: Map<LoraStep, StepJob>): Promise<void> {
  const repo = experimentsRepository(db);
  const exp = await repo.find(c.experimentId);
  if (exp?.evalDatasetId && !c.evalSnapshotSha256) c.evalSnapshotSha256 = (await repo.dataset(exp.evalDatasetId))?.snapshotSha256 ?? null;
  if (exp?.resumedFromId && !c.resumeFrom) c.resumeFrom = await stoppedTrainRef(db, exp.resumedFromId);
  const preflightReady = c.outputs.import_base !== undefined && c.outputs.check_data !== undefined && !jobs.has("preflight");
  if (preflightReady && !c.measured) c.measured = await reusableMeasurement(db, c.targetId, c.cpus, loraRun(c));
}

/** `checkpoints:<worker job id>` of an experiment's train job; null when it never reached the worker. */
export async function stoppedTrainRef(db: Db, experimentId: string): Promise<string | null> {
  const repo = experimentsRepository(db);
  const stopped = await repo.find(experimentId);
  if (!stopped) return null;
  const [train] = await repo.jobsByOpIds([ownOpId(stopped.opId, "train")]);
  return train?.workerJobId ? checkpointsRef(train.workerJobId) : null;
}

export function loraContext(base: ChainBase<LoraStep>, settingsJson: string): LoraContext {
  return { ...base, settings: ZFineTuneSettings.parse(JSON.parse(settingsJson)), evalSnapshotSha256: null, resumeFrom: null, measured: null };
}

/** A context to find a fine-tuning experiment's step jobs by, for views that start nothing. */
export function loraLookupContext(e: { id: string; opId: string; name: string; snapshotSha256: string; targetId: string; settings: string }): LoraContext {
  const base: ChainBase<LoraStep> = {
    experimentId: e.id,
    opId: e.opId,
    targetId: e.targetId,
    projectName: "",
    experimentName: e.name,
    datasetName: "",
    snapshotSha256: e.snapshotSha256,
    datasetFormat: null,
    cpus: 1,
    freeCpus: 0,
    remainingSeconds: 0,
    outputs: {},
    holdouts: [], // a fine-tune's data is not split: holdouts are for tables
  };
  return loraContext(base, e.settings);
}

export const LORA: Pipeline<LoraStep, LoraContext, FineTuneResults> = {
  steps: STEPS,
  budgetedStep: "train",
  dataset: "examples",
  context: loraContext,
  blobs: (c) => [...(c.evalSnapshotSha256 ? [c.evalSnapshotSha256] : []), ...baseBlobs(c.settings.base)],
  learn,
  collect: (db, exp, jobs: Map<LoraStep, StepJob>) => collectFineTune(db, exp.id, jobs),
};
