/**
 * Folds finished data jobs back into dataset rows: a succeeded profile stores
 * profile.json (and the snapshot's row count, format and column schema) — for a file of
 * examples, llm-lora.profile_examples' examples.json instead — checks store
 * checks.json, a split stores split.json and the job's output hash. Rows waiting for
 * the data tools to be set up start their job once the environment is ready. Each row's
 * status moves through its lifecycle (data-lifecycles.ts), one event row per move.
 *
 * It runs on reads of those rows, and for every row still waiting from the data-steps
 * reconciler (server/controller/reconcilers/data-steps.ts: at its job's change, and in a
 * sweep), one advance per row at a time. Nothing here is lost on restart: the rows say
 * what is still to be settled.
 */
import { ZChecksResult, ZProfile, ZSplitContract } from "@/contracts/recipes";
import { ZLoraExamples } from "@/contracts/recipes/llm-lora";
import { readOutput } from "@/server/jobs/read-output";
import type { Db } from "@/server/db/client";
import { DomainError } from "@/server/errors";
import { publish } from "@/server/events/bus";
import { isTerminal } from "@/server/jobs/job-state";
import type { JobDetailView } from "@/server/jobs/jobs.schema";
import { jobsService } from "@/server/jobs/jobs.service";
import { transition, type LifecycleStore } from "@/server/lifecycle/transition";
import { settingsService } from "@/server/settings/settings.service";
import { datasetsRepository, type CheckRow, type DatasetRow, type SplitRow } from "./datasets.repository";
import type { SetupProgress } from "./datasets.schema";
import { snapshotRef, storedProfile } from "./datasets.views";
import { EXAMPLES_PREVIEW, PROFILE_STEP, storedKind } from "./dataset-kind";
import { checkStore, datasetStore, splitStore, type CheckPatch, type DatasetPatch, type SplitPatch } from "./data-lifecycles";
import { jobError, startDataJob } from "./data-jobs";
import { localTarget } from "./local-store";

const changed = (d: { id: string; projectId: string }) => publish({ type: "dataset.changed", datasetId: d.id, projectId: d.projectId });
const errJson = (code: string, message: string) => JSON.stringify({ code, message });

/** A worker that did not answer is worth another try on the next pass, not a failed dataset. */
function transient(err: unknown): boolean {
  return err instanceof DomainError && err.code === "UNAVAILABLE" && !err.details?.setupJobId;
}

function startFailure(err: DomainError): { code: string; message: string } {
  return { code: (err.details?.code as string) ?? err.code.toLowerCase(), message: err.message };
}

export async function profileInput(db: Db, d: DatasetRow): Promise<Record<string, unknown>> {
  const s = await settingsService(db).values();
  return {
    dataset: snapshotRef(d.snapshotSha256),
    fileName: d.name,
    encoding: d.encoding,
    limits: { maxLineBytes: s.maxLineBytes, maxColumns: s.maxColumns, maxDecompressedBytes: s.maxDecompressedBytes },
  };
}

export async function checksInput(db: Db, c: CheckRow): Promise<Record<string, unknown> | null> {
  const d = await datasetsRepository(db).datasets.find(c.datasetId);
  const profile = storedProfile(d?.profile ?? null);
  if (!d || !profile) return null;
  const positiveClass = JSON.parse(c.positiveClassKey) as unknown;
  return {
    dataset: snapshotRef(d.snapshotSha256),
    datasetFormat: profile.tableFormat,
    target: c.target,
    ...(positiveClass === null ? {} : { positiveClass }),
  };
}

type Failure = { code: string; message: string };
type Outcome<P> = { ok: true; patch: P } | { ok: false; error: Failure };

/**
 * How one kind of row is settled from its data job. The steps are the same for all three
 * (start the job, wait for it, fold its output in); what differs is said here.
 */
interface Settlement<W extends string, P> {
  /** Every data lifecycle waits in one state (W) and ends `ready` or `failed`. */
  store: LifecycleStore<W | "ready" | "failed", P>;
  row: { id: string; status: string; jobId: string | null };
  /** The state the row waits in for its job. */
  waiting: W;
  job: "profile" | "checks" | "split" | "profile_examples";
  /** The job's recipe (default: data). */
  recipe?: string;
  /** The job's input and its operation key (one job per key). */
  start: () => Promise<{ input: Record<string, unknown>; key: string }>;
  attach: (jobId: string) => Promise<unknown>;
  /** The ready row's fields from the succeeded job (or why it still failed). */
  succeeded: (job: JobDetailView) => Promise<Outcome<P>>;
  /** The failure as the row stores it; `atStart` when the job could not even start. */
  failure: (f: Failure, atStart: boolean) => P;
  /** Tells watchers the row changed. */
  notify: () => void;
}

async function settle<W extends string, P>(db: Db, s: Settlement<W, P>): Promise<SetupProgress | null> {
  if (s.row.status !== s.waiting) return null;
  const fail = (f: Failure, atStart: boolean) => transition(db, s.store, s.row.id, "failed", { reason: f.code, patch: s.failure(f, atStart) });
  if (!s.row.jobId) {
    try {
      const { input, key } = await s.start();
      const start = await startDataJob(db, (await localTarget(db)).id, s.job, input, key, s.recipe);
      if (start.kind === "setup") return start.setup;
      await s.attach(start.job.id);
    } catch (err) {
      if (transient(err)) return null;
      // Only a refusal (a domain error) fails the row; anything else (a database or
      // connection error) says nothing about the data and is retried on the next pass.
      if (!(err instanceof DomainError)) throw err;
      await fail(startFailure(err), true);
    }
    s.notify();
    return null;
  }
  const job = await jobsService(db).get(s.row.jobId);
  if (!isTerminal(job.state)) return null;
  const outcome: Outcome<P> = job.state === "succeeded" ? await s.succeeded(job) : { ok: false, error: jobError(job) };
  if (outcome.ok) await transition(db, s.store, s.row.id, "ready", { patch: outcome.patch });
  else await fail(outcome.error, false);
  s.notify();
  return null;
}

/** The profile_examples input of a file of examples. */
export const examplesProfileInput = (d: DatasetRow) => ({ data: snapshotRef(d.snapshotSha256), maxPreview: EXAMPLES_PREVIEW });

/** A table's profile.json also describes its snapshot (format, rows, columns); returns what the row stores. */
async function readTableProfile(db: Db, d: DatasetRow, job: JobDetailView): Promise<string> {
  const profile = await readOutput(db, job, PROFILE_STEP.table.output, ZProfile);
  await datasetsRepository(db).snapshots.describe(d.snapshotSha256, {
    format: JSON.stringify(profile.tableFormat),
    rowCount: profile.rows,
    columns: JSON.stringify(profile.columns.map((c) => ({ name: c.name, type: c.type }))),
  });
  return JSON.stringify(profile);
}

/** Advances one dataset's profile (data.profile, or llm-lora.profile_examples for examples); returns setup progress while its tools are being built. */
export function settleDataset(db: Db, d: DatasetRow): Promise<SetupProgress | null> {
  const repo = datasetsRepository(db);
  const kind = storedKind(d.kind);
  const step = PROFILE_STEP[kind];
  return settle<"profiling", DatasetPatch>(db, {
    store: datasetStore,
    row: { id: d.id, status: d.status, jobId: d.profileJobId },
    waiting: "profiling",
    job: step.job,
    recipe: step.recipe,
    start: async () => ({ input: kind === "examples" ? examplesProfileInput(d) : await profileInput(db, d), key: `${d.id}:${d.updatedAt.getTime()}` }),
    attach: (profileJobId) => repo.datasets.update(d.id, { profileJobId }),
    succeeded: async (job) => {
      try {
        const profile = kind === "examples" ? JSON.stringify(await readOutput(db, job, step.output, ZLoraExamples)) : await readTableProfile(db, d, job);
        return { ok: true, patch: { error: null, profile } };
      } catch (err) {
        return { ok: false, error: { code: "profile_unreadable", message: `The ${kind === "examples" ? "examples" : "profile"} could not be read: ${(err as Error).message}` } };
      }
    },
    failure: (f) => ({ error: errJson(f.code, f.message) }),
    notify: () => changed(d),
  });
}

export async function settleCheck(db: Db, c: CheckRow): Promise<SetupProgress | null> {
  const repo = datasetsRepository(db);
  const d = c.status === "running" ? await repo.datasets.find(c.datasetId) : null;
  return settle<"running", CheckPatch>(db, {
    store: checkStore,
    row: { id: c.id, status: c.status, jobId: c.jobId },
    waiting: "running",
    job: "checks",
    start: async () => {
      const input = await checksInput(db, c);
      if (!input) throw new Error("the dataset has no profile");
      return { input, key: c.id };
    },
    attach: (jobId) => repo.checks.update(c.id, { jobId }),
    succeeded: async (job) => ({ ok: true, patch: { result: JSON.stringify(await readOutput(db, job, "checks.json", ZChecksResult)), error: null } }),
    failure: (f) => ({ error: errJson(f.code, f.message) }),
    notify: () => (d ? changed(d) : undefined),
  });
}

export function settleSplit(db: Db, s: SplitRow): Promise<SetupProgress | null> {
  const repo = datasetsRepository(db);
  return settle<"running", SplitPatch>(db, {
    store: splitStore,
    row: { id: s.id, status: s.status, jobId: s.jobId },
    waiting: "running",
    job: "split",
    start: async () => ({ input: JSON.parse(s.settings) as Record<string, unknown>, key: s.id }),
    attach: (jobId) => repo.splits.update(s.id, { jobId }),
    succeeded: async (job) => {
      // A split is its output folder: without the manifest's hash there is nothing to use.
      if (!job.outputSha256) return { ok: false, error: jobError(job) };
      const contract = await readOutput(db, job, "split.json", ZSplitContract);
      return { ok: true, patch: { contract: JSON.stringify(contract), outputSha256: job.outputSha256, error: null } };
    },
    // The split's error is words (SplitView shows it as is).
    failure: (f, atStart) => ({ error: atStart ? f.message : `${f.message} (${f.code})` }),
    // Nobody watches a split row: the chain that asked for it polls it.
    notify: () => {},
  });
}

/** A waiting data step as its reconciler names it: `dataset:<id>` (profile), `check:<id>`, `split:<id>`. */
type StepKind = "dataset" | "check" | "split";
const stepKey = (kind: StepKind, id: string) => `${kind}:${id}`;

/** The data steps still waiting for their job (server/controller/reconcilers/data-steps.ts sweeps them). */
export async function waitingDataSteps(db: Db): Promise<{ id: string }[]> {
  const repo = datasetsRepository(db);
  return [
    ...(await repo.datasets.profiling()).map((d) => ({ id: stepKey("dataset", d.id) })),
    ...(await repo.checks.running()).map((c) => ({ id: stepKey("check", c.id) })),
    ...(await repo.splits.running()).map((s) => ({ id: stepKey("split", s.id) })),
  ];
}

/** One step by its key; a row no longer waiting (or gone) is left as it is. */
export async function settleDataStep(db: Db, key: string): Promise<void> {
  const repo = datasetsRepository(db);
  const [kind, id] = [key.slice(0, key.indexOf(":")), key.slice(key.indexOf(":") + 1)];
  if (kind === "dataset") {
    const d = await repo.datasets.find(id);
    if (d?.status === "profiling") await settleDataset(db, d);
  } else if (kind === "check") {
    const c = await repo.checks.byId(id);
    if (c?.status === "running") await settleCheck(db, c);
  } else if (kind === "split") {
    const sp = await repo.splits.findById(id);
    if (sp?.status === "running") await settleSplit(db, sp);
  } else throw new Error(`not a data step: ${key}`);
}

/** The waiting step a job belongs to, or null (its change settles that step at once). */
export async function dataStepOfJob(db: Db, jobId: string): Promise<string | null> {
  const repo = datasetsRepository(db);
  const d = await repo.datasets.byProfileJob(jobId);
  if (d?.status === "profiling") return stepKey("dataset", d.id);
  const c = await repo.checks.byJob(jobId);
  if (c?.status === "running") return stepKey("check", c.id);
  const sp = await repo.splits.byJob(jobId);
  if (sp?.status === "running") return stepKey("split", sp.id);
  return null;
}
