/**
 * What a recipe pipeline is (DESIGN "Job lifecycle"): its steps as data — each one job of
 * a recipe, the steps whose outputs it needs, how its input is built from them, its
 * deadline and CPUs — and what the pipeline collects when every step has succeeded. The
 * chain runner (chain-advance.ts, chain-jobs.ts) knows no step by name: the tabular
 * pipeline (pipelines/tabular.ts) and the fine-tuning one are each a file of this shape.
 * Pure: no I/O here.
 */
import type { PinnedHoldouts } from "@/server/experiments/pinned-holdouts";
import type { InputOf, JobName, RecipeName, TableFormat } from "@/contracts/recipes";
import { PHASES, type Phase } from "@/contracts/vocabulary";
import { sha256Ref } from "@/contracts/worker/refs";
import type { TSlurmArrayMember } from "@/contracts/worker/slurm";
import type { Db } from "@/server/db/client";
import type { StepJob } from "./chain-jobs";

// The phases are shared vocabulary (the page names them too); a step names its phase.
export { PHASES, type Phase };

/** What every pipeline's steps may read: the experiment, its data, its budget, the outputs so far. */
export interface ChainBase<S extends string> {
  experimentId: string;
  opId: string;
  projectName: string;
  experimentName: string;
  datasetName: string;
  snapshotSha256: string;
  /** The computer every step runs on. */
  targetId: string;
  /** The dataset's table format; null for a dataset of JSONL examples (pipeline `dataset: "examples"`). */
  datasetFormat: TableFormat | null;
  /** The computer's whole CPU capacity (what training reserves). */
  cpus: number;
  /** CPUs no job holds or waits for, counted just before the ready steps are admitted. */
  freeCpus: number;
  /** Seconds of budget left now (the whole experiment's budget minus time spent). */
  remainingSeconds: number;
  /** The dataset snapshot's size: evaluation and export limits grow with it. */
  datasetBytes?: number;
  /** Output (manifest SHA-256) of each finished step. */
  outputs: Partial<Record<S, string>>;
  /** The reserved holdouts pinned on the experiment, which its split keeps out (server/experiments/pinned-holdouts.ts). */
  holdouts: PinnedHoldouts;
}

interface StepOf<S extends string, C, R extends RecipeName, J extends JobName<R>> {
  name: S;
  /** What the step does, in words, on the experiment page and in the CLI ("Training models"). */
  label: string;
  phase: Phase;
  recipe: R;
  job: J;
  needs: readonly S[];
  /** Steps shared between experiments (same data, same settings) reuse one job by opId. */
  sharedOpId?: (c: C) => string;
  /** The job's input, typed by its recipe's contract (contracts/recipes), which the worker checks at submit. */
  input: (c: C) => InputOf<R, J>;
  /** The job's wall deadline (chain-budget.ts: only steps up to the budgeted one are held to the budget). */
  deadlineSeconds: (c: C) => number;
  cpus: (c: C) => number;
  /** On a Slurm computer, the job array the step's job goes in (a search's round of trials); absent or null: a job of its own. */
  slurmArray?: (c: C) => TSlurmArrayMember | null;
}

/** A step: one job of one recipe, whose input builder returns exactly that job's input. */
export type StepSpec<S extends string, C> = {
  [R in RecipeName]: { [J in JobName<R>]: StepOf<S, C, R, J> }[JobName<R>];
}[RecipeName];

/**
 * What a finished pipeline hands the experiment row: its verified export, unless it is a
 * pipeline that exports nothing (a search's trials and its keep-the-baseline scoring).
 */
export interface PipelineResults {
  export?: { sha256: string; bytes: number };
}

export interface Pipeline<S extends string, C extends ChainBase<S>, R extends PipelineResults = PipelineResults> {
  steps: readonly StepSpec<S, C>[];
  /**
   * The step the budget bounds: while it has no output, running out of time stops the
   * experiment; once it has one (a trained model), nothing after it is lost to the budget.
   */
  budgetedStep: S;
  /** What its dataset must be: a profiled table, or JSONL examples (read by the recipe itself). */
  dataset: "table" | "examples";
  /** Blobs of This computer its steps read besides the dataset snapshot, copied to a server before they start. */
  blobs?: (c: C) => string[];
  /** The pipeline's context: the shared facts plus its own settings (the experiment row's JSON). */
  context: (base: ChainBase<S>, settingsJson: string) => C;
  /** Facts later steps need from finished ones (the class order the model was trained with). */
  learn: (db: Db, c: C, jobs: Map<S, StepJob>) => Promise<void>;
  /** Everything the experiment shows once every step has succeeded. */
  collect: (db: Db, exp: { id: string; name: string }, jobs: Map<S, StepJob>) => Promise<R>;
}

// Any pipeline, for the runner that only walks its steps. `any` in the step and context
// slots because a pipeline's builders take its own steps and context (function parameters
// are contravariant, so no concrete pipeline is a Pipeline<string, ChainBase<string>>).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyPipeline = Pipeline<any, any, PipelineResults>;

export function stepSpec<S extends string, C extends ChainBase<S>>(p: Pipeline<S, C, PipelineResults>, name: S): StepSpec<S, C> {
  const s = p.steps.find((x) => x.name === name);
  if (!s) throw new Error(`unknown step ${name}`);
  return s;
}

/** A finished step's output hash; a step is only started once the steps it needs have one. */
export function stepOutput<S extends string>(c: { outputs: Partial<Record<S, string>> }, step: S): string {
  const v = c.outputs[step];
  if (v === undefined) throw new Error(`step ${step} has no output yet`);
  return v;
}

/** The same, as the `sha256:` reference a job input names it by (the worker resolves it). */
export const stepOutputRef = <S extends string>(c: { outputs: Partial<Record<S, string>> }, step: S): string => sha256Ref(stepOutput(c, step));

/** Steps whose prerequisites all have outputs and which have no job yet. */
export function readySteps<S extends string, C extends ChainBase<S>>(
  p: Pipeline<S, C, PipelineResults>,
  started: Set<S>,
  outputs: Partial<Record<S, string>>,
): StepSpec<S, C>[] {
  return p.steps.filter((s) => !started.has(s.name) && s.needs.every((n) => outputs[n] !== undefined));
}

/** The phase of the earliest step still running; when none runs, of the latest started. */
export function phaseOf<S extends string>(steps: readonly { name: S; phase: Phase }[], started: Set<S>, running: Set<S>): Phase {
  const rank = (p: Phase) => PHASES.indexOf(p);
  const begun = steps.filter((s) => started.has(s.name));
  const active = begun.filter((s) => running.has(s.name));
  if (active.length) return active.map((s) => s.phase).sort((a, b) => rank(a) - rank(b))[0]!;
  return begun.map((s) => s.phase).sort((a, b) => rank(b) - rank(a))[0] ?? "preparing_data";
}
