// Creating a job record, shared by submit and prepare. Runs under the `ops` lock so
// concurrent requests with one opId create one job. Write order makes a crash at any
// point safe: op index (opId -> jobId) first, then job dir and input.json, then the
// receipt; a retry that finds the index but no receipt finishes the same job id.
import fs from "node:fs";
import type { TReceipt } from "../../../contracts/worker/receipt";
import type { TResources } from "../../../contracts/worker/requests";
import type { TSlurmArrayMember } from "../../../contracts/worker/slurm";
import { WorkerError } from "../errors";
import { appendLine, nowIso, readText, writeJsonAtomic } from "../fsx";
import { newJobId } from "../home";
import { withLock } from "../lock";
import { createReceipt, readReceipt } from "../receipts";
import { jobPaths } from "../supervisor/command";
import type { Ctx } from "./context";

export interface NewJob {
  opId: string;
  intentHash: string;
  kind: TReceipt["kind"];
  recipe: string;
  job: string;
  environmentId: string;
  priority: number;
  resources: TResources;
  deadlineSeconds: number;
  graceSeconds: number;
  /** The resolved input.json content. */
  input: unknown;
  inputRefs: string[];
  /** The Slurm job array it goes in (a submitter's round of trials); null: a job of its own. */
  slurmArray?: TSlurmArrayMember | null;
}

export function withOpsLock<T>(ctx: Ctx, fn: () => T): T {
  return withLock(ctx.home.lock("ops"), "ops", fn);
}

/** Existing job for this opId (same intent) or null; a different intent is `op_conflict`. */
export function existingForOp(ctx: Ctx, opId: string, intentHash: string): { jobId: string; receipt: TReceipt | null } | null {
  const text = readText(ctx.home.opIndex(opId));
  if (!text) return null;
  const idx = JSON.parse(text) as { jobId: string; intentHash: string };
  if (idx.intentHash !== intentHash) {
    throw new WorkerError("op_conflict", `opId ${opId} was already used for a different request (job ${idx.jobId})`, { jobId: idx.jobId });
  }
  try {
    return { jobId: idx.jobId, receipt: readReceipt(ctx.home, idx.jobId) };
  } catch (err) {
    if (err instanceof WorkerError && err.code === "not_found") return { jobId: idx.jobId, receipt: null };
    throw err;
  }
}

function nextSeq(ctx: Ctx): number {
  const file = ctx.home.p("seq");
  const n = Number(readText(file) ?? "0") + 1;
  writeJsonAtomic(file, n);
  return n;
}

/** Call inside withOpsLock. */
export function createJob(ctx: Ctx, spec: NewJob, reuseJobId?: string): TReceipt {
  const { home } = ctx;
  const jobId = reuseJobId ?? newJobId();
  if (!reuseJobId) writeJsonAtomic(home.opIndex(spec.opId), { opId: spec.opId, jobId, intentHash: spec.intentHash });
  const p = jobPaths(home.jobDir(jobId));
  fs.mkdirSync(p.jobDir, { recursive: true });
  writeJsonAtomic(p.inputFile, spec.input);
  const now = nowIso();
  const receipt: TReceipt = {
    jobId,
    opId: spec.opId,
    intentHash: spec.intentHash,
    kind: spec.kind,
    recipe: spec.recipe,
    job: spec.job,
    environmentId: spec.environmentId,
    state: "queued",
    reason: null,
    queuedReason: null,
    waitingFor: null,
    detail: null,
    exitCode: null,
    signal: null,
    priority: spec.priority,
    seq: nextSeq(ctx),
    resources: spec.resources,
    reservation: null,
    reservationReleasedAt: null,
    createdAt: now,
    admittedAt: null,
    startedAt: null,
    endedAt: null,
    deadlineSeconds: spec.deadlineSeconds,
    deadlineAt: null,
    graceSeconds: spec.graceSeconds,
    cancelRequestedAt: null,
    bootId: readText("/proc/sys/kernel/random/boot_id")?.trim() ?? "unknown-boot",
    supervisor: null,
    recipeProcess: null,
    launch: null,
    slurmArray: spec.slurmArray ?? null,
    slurm: null,
    slurmAttempts: [],
    slurmRetry: null,
    usage: { wallSeconds: null, cpuSeconds: null, peakRssBytes: null, peakPssBytes: null, outputBytes: null },
    report: null,
    outputSha256: null,
    logBytes: 0,
    logDroppedBytes: 0,
    eventsBytes: 0,
    inputRefs: spec.inputRefs,
    jobDir: p.jobDir,
    gcAt: null,
  };
  createReceipt(home, receipt);
  try {
    appendLine(p.eventsFile, JSON.stringify({ t: now, type: "state", from: null, to: "queued", reason: null }));
  } catch {
    // audit line only
  }
  return receipt;
}
