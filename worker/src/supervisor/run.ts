// The job supervisor: one detached process per job. Claims the admitted job (only one
// supervisor can move it to `running`), runs the recipe in its own process group (an
// import job is a copy this process does itself: import-job.ts), caps
// its log, samples usage, enforces the deadline and cancel flag (SIGTERM the group,
// grace, SIGKILL), waits until no process of the group remains, verifies outputs,
// records the terminal receipt, and then hands its slot on (startWhatFits).
import fs from "node:fs";
import type { TReceipt } from "../../../contracts/worker/receipt";
import { verifyBlobForBoot } from "../blob-verify";
import type { WorkerConfig } from "../config";
import { configureFaults, isEnospc, releaseInjectedFaults } from "../faults";
import { mkdirp } from "../fsx";
import type { Home } from "../home";
import { transition } from "../jobstate";
import { startWhatFits } from "../ledger";
import { cgroupOomKills, identityOf, isAlive, signalJobGroup } from "../proc";
import { readReceipt, updateReceipt } from "../receipts";
import { buildCommand, jobPaths, type Command, type JobPaths } from "./command";
import { CappedLog } from "./logcap";
import type { StopCause } from "./outcome";
import { startRecipe } from "./start-recipe";
import { UsageSampler } from "./usage";
import { runImport } from "./import-job";
import { discardOutputs, finish } from "./finish";
import { continueAsNewSlurmJob } from "../slurm/submit";
import { recordSlurmAttempt, recordUnsaidRequeue } from "../slurm/attempts";

/** How many Slurm jobs one job may run as, one after another's time limit. */
const MAX_SLURM_ATTEMPTS = 20;

const delay = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The supervisor of a Slurm batch job (`--in-slurm`): its time limit is a signal, and a job may run in several. */
export interface SlurmRun {
  slurmJobId: string;
  /** SLURM_RESTART_COUNT: how many times Slurm started this Slurm job again (preemption, requeue). */
  restartCount: number;
}

/**
 * The job's receipt as this Slurm job's supervisor should read it: a job going on as a new
 * Slurm job names it in its receipt right after sbatch answers, which can be a moment after
 * Slurm started it.
 */
async function receiptFor(home: Home, jobId: string, inSlurm: SlurmRun | null): Promise<TReceipt> {
  let r = readReceipt(home, jobId);
  for (let i = 0; inSlurm && r.state === "running" && r.slurm?.jobId !== inSlurm.slurmJobId && i < 50; i++) {
    await delay(200);
    r = readReceipt(home, jobId);
  }
  return r;
}

export async function supervise(home: Home, cfg: WorkerConfig, jobId: string, inSlurm: SlurmRun | null = null): Promise<void> {
  configureFaults(cfg.testFaults);
  const me = identityOf(process.pid);
  const r0 = await receiptFor(home, jobId, inSlurm);
  // A running job whose Slurm job this is: one going on after a time limit as a new Slurm
  // job, or one Slurm stopped and started again (the same Slurm job, requeued).
  const continued = inSlurm !== null && r0.state === "running" && r0.slurm?.jobId === inSlurm.slurmJobId;
  if (continued) {
    try {
      await continueRun(home, cfg, updateReceipt(home, jobId, (x) => ({ ...x, supervisor: me })), inSlurm);
    } finally {
      startWhatFits(home, cfg);
    }
    return;
  }
  if (r0.state !== "admitted") return; // already claimed, finished or cancelled
  if (r0.supervisor && r0.supervisor.pid !== process.pid && isAlive(r0.supervisor)) return;
  const p = jobPaths(home.jobDir(jobId));
  if (r0.cancelRequestedAt || fs.existsSync(p.cancelFlag)) {
    transition(home, jobId, "cancelled", "cancel_requested", () => ({ supervisor: me }), ["admitted"]);
    startWhatFits(home, cfg);
    return;
  }
  if (r0.kind === "import") {
    try {
      runImport(home, cfg, r0, p, me);
    } finally {
      startWhatFits(home, cfg);
    }
    return;
  }
  const corrupt = r0.kind === "run" ? await corruptInput(home, r0.inputRefs) : null;
  if (corrupt) {
    transition(home, jobId, "failed", "launch_failed", () => ({ supervisor: me, detail: corrupt }), ["admitted"]);
    startWhatFits(home, cfg);
    return;
  }
  let command: Command;
  try {
    for (const d of [p.workDir, p.outputDir, p.checkpointDir]) mkdirp(d);
    command = buildCommand(cfg, r0, p);
  } catch (err) {
    const reason = (err as { code?: string }).code === "environment_not_ready" ? "environment_missing" : "launch_failed";
    transition(home, jobId, "failed", reason, () => ({ supervisor: me, detail: (err as Error).message }), ["admitted"]);
    startWhatFits(home, cfg);
    return;
  }
  const startedAt = new Date();
  try {
    const claim = transition(home, jobId, "running", null, () => ({
      supervisor: me,
      startedAt: startedAt.toISOString(),
      deadlineAt: new Date(startedAt.getTime() + r0.deadlineSeconds * 1000).toISOString(),
    }), ["admitted"]);
    if (!claim.changed) return;
    await runRecipe(home, cfg, claim.receipt, p, command, inSlurm);
  } catch (err) {
    if (!isEnospc(err)) throw err;
    // The disk filled before the recipe started (or while recording it): free the reserve
    // so this outcome can be written, and leave no output that looks valid.
    home.freeReserve();
    releaseInjectedFaults();
    discardOutputs(p);
    transition(home, jobId, "failed", "disk_full", () => ({ supervisor: me, detail: `no space left on device: ${(err as Error).message}` }), ["admitted", "running"]);
  } finally {
    startWhatFits(home, cfg);
  }
}

/** Re-hash the job's store blobs not yet verified in this boot; the first mismatch, in words. */
async function corruptInput(home: Home, refs: string[]): Promise<string | null> {
  for (const sha of refs) {
    if (!/^[0-9a-f]{64}$/.test(sha)) continue; // `checkpoints:<jobId>`: an earlier job's own files
    if (!fs.existsSync(home.blob(sha))) continue; // an earlier job's output dir, not a blob
    try {
      await verifyBlobForBoot(home, sha);
    } catch (err) {
      return `input ${sha.slice(0, 12)} failed its check after a reboot: ${(err as Error).message}`;
    }
  }
  return null;
}

/** A later attempt of a job on a Slurm computer: the same command; the recipe finds its own checkpoints, if it saved any. */
async function continueRun(home: Home, cfg: WorkerConfig, r0: TReceipt, inSlurm: SlurmRun): Promise<void> {
  const r = recordUnsaidRequeue(home, r0, inSlurm.slurmJobId, inSlurm.restartCount);
  const p = jobPaths(r.jobDir);
  // Cancelled or out of time while it waited in Slurm's queue: nothing is started again.
  if (r.cancelRequestedAt || fs.existsSync(p.cancelFlag)) {
    transition(home, r.jobId, "cancelled", "cancel_requested", () => ({ detail: `cancelled while Slurm job ${inSlurm.slurmJobId} waited to go on` }), ["running"]);
    return;
  }
  if (Date.now() >= (Date.parse(r.deadlineAt ?? "") || Number.POSITIVE_INFINITY)) {
    transition(home, r.jobId, "timed_out", "deadline", () => ({ detail: `the wall deadline of ${r.deadlineSeconds} s passed while Slurm job ${inSlurm.slurmJobId} waited to go on` }), ["running"]);
    return;
  }
  let command: Command;
  try {
    command = buildCommand(cfg, r, p);
  } catch (err) {
    transition(home, r.jobId, "failed", "launch_failed", () => ({ detail: (err as Error).message }), ["running"]);
    return;
  }
  const saved = fs.existsSync(p.checkpointDir) && fs.readdirSync(p.checkpointDir).length > 0;
  const after = r.slurmAttempts.at(-1)?.reason === "preempted" ? "after Slurm stopped it and started it again (preempted or requeued)" : "after Slurm's time limit";
  const note = `attempt ${r.slurmAttempts.length + 1}, Slurm job ${inSlurm.slurmJobId}, ${after}: ${saved ? "the recipe resumes from its checkpoint" : "the recipe starts again from the beginning (it saved no checkpoint)"}`;
  await runRecipe(home, cfg, r, p, command, inSlurm, note);
}

async function runRecipe(home: Home, cfg: WorkerConfig, r: TReceipt, p: JobPaths, command: Command, inSlurm: SlurmRun | null, firstNote?: string): Promise<void> {
  const attemptStartedAt = new Date().toISOString();
  const log = new CappedLog(p.logFile, cfg.logCapBytes);
  if (firstNote) log.note(firstNote);
  const oomBefore = cgroupOomKills();
  const graceMs = r.graceSeconds * 1000;
  const deadline = Date.parse(r.deadlineAt ?? "") || Number.POSITIVE_INFINITY;
  let stop: StopCause = null;
  let killAt = Number.POSITIVE_INFINITY;
  let logBroken = false;
  let detail: string | null = null;

  const proc = await startRecipe(cfg, p, command, log);
  const leader = proc.leader;
  const pgid = leader?.pid ?? -1;

  const beginStop = (cause: Exclude<StopCause, null>, why: string) => {
    if (stop) return;
    stop = cause;
    log.note(`${why}: SIGTERM to process group ${pgid}, SIGKILL after ${r.graceSeconds} s`);
    signalJobGroup(leader, "SIGTERM");
    killAt = Date.now() + graceMs;
  };
  if (inSlurm) {
    // sbatch --signal=B:USR1@90: Slurm's time limit is 90 s away.
    process.once("SIGUSR1", () => beginStop("time_limit", "Slurm's time limit is near (SIGUSR1)"));
    // Slurm ends a job with SIGTERM to each of its processes (the recipe's too), then SIGKILL
    // after its KillWait: preemption, a requeue, or scancel outside Trainyard. Which one only
    // Slurm knows: a requeued job starts again as the same Slurm job (continueRun).
    process.on("SIGTERM", () => beginStop("preempted", "Slurm is stopping the job (SIGTERM: preempted, requeued or cancelled in Slurm)"));
  }
  const onDiskFull = (err: unknown) => {
    logBroken = true;
    home.freeReserve();
    releaseInjectedFaults();
    detail = `no space left on device while writing the job's files (${(err as Error).message})`;
    beginStop("disk_full", "disk full");
  };
  const onChunk = (chunk: Buffer) => {
    if (logBroken) {
      log.dropped += chunk.length;
      return;
    }
    try {
      log.write(chunk);
    } catch (err) {
      if (isEnospc(err)) onDiskFull(err);
      else logBroken = true;
    }
  };
  if (leader) {
    const started = { recipeProcess: leader, launch: proc.launch };
    try {
      updateReceipt(home, r.jobId, (x) => ({ ...x, ...started }));
    } catch (err) {
      if (!isEnospc(err)) throw err;
      onDiskFull(err);
      updateReceipt(home, r.jobId, (x) => ({ ...x, ...started })); // reserve freed: retry once
    }
  }
  const streamsClosed = Promise.all(proc.streams.map((s) => new Promise((res) => s.once("close", res))));
  for (const s of proc.streams) {
    s.on("data", onChunk);
    s.resume();
  }

  const sampler = new UsageSampler(leader);
  const jobDir = home.jobDir(r.jobId);
  const memoryLimit = command.resident?.memoryLimitBytes ?? null;
  let leftoversTermed = false;
  for (let tick = 0; ; tick++) {
    await Promise.race([delay(tick < 5 ? 100 : 500), proc.exited]);
    proc.poll();
    const exit = proc.exit();
    const alive = leader ? sampler.sample() : 0;
    const now = Date.now();
    if (!stop && exit === null) {
      if (fs.existsSync(p.cancelFlag)) beginStop("cancel", "cancel requested");
      // A deleted data home (a removed test home, a user's rm -r) takes the job's folder with
      // it: nothing can cancel the job or read its outcome any more, so it stops itself.
      else if (tick % 10 === 9 && !fs.existsSync(jobDir)) beginStop("cancel", "its job folder was removed with the worker home");
      else if (now >= deadline) beginStop("deadline", `wall deadline of ${r.deadlineSeconds} s reached`);
      else if (memoryLimit !== null && sampler.rssBytes > memoryLimit) {
        detail = `memory budget of ${r.resources.ramGb} GiB exceeded: the process group held ${(sampler.rssBytes / 1024 ** 3).toFixed(2)} GiB`;
        beginStop("memory", "memory budget exceeded");
      }
    }
    if (exit !== null && alive > 0 && !stop && !leftoversTermed) {
      // The recipe's main process ended but left children behind: stop them too.
      leftoversTermed = true;
      signalJobGroup(leader, "SIGTERM");
      killAt = now + graceMs;
    }
    if (alive > 0 && now >= killAt) signalJobGroup(leader, "SIGKILL");
    if (exit !== null && alive === 0) break;
  }
  await Promise.race([streamsClosed, delay(2000)]);
  const exit = proc.exit() ?? { kind: "launch_failed" as const };
  // A recipe that finished before the signal reached it keeps its result.
  if ((stop === "preempted" || stop === "time_limit") && exit.kind === "exited" && exit.code === 0) stop = null;
  if (stop === "preempted") log.note(`the job waits for Slurm to start Slurm job ${inSlurm?.slurmJobId} again; when Slurm does not (it was cancelled in Slurm), the job ends failed (interrupted)`);
  log.close();
  // A killed serving process leaves its socket behind; nothing may connect to a stale one.
  if (command.resident) fs.rmSync(command.resident.runDir, { recursive: true, force: true });
  if (!fs.existsSync(jobDir)) return; // the home is gone: no receipt to write, no queue to start
  if (stop === "preempted") {
    recordSlurmAttempt(home, r.jobId, "preempted", attemptStartedAt);
    return;
  }
  if (stop === "time_limit" && cfg.slurm && Date.now() < deadline) {
    const now = readReceipt(home, r.jobId);
    // A limit too short to get anywhere must not become an endless chain of Slurm jobs.
    const refused = now.slurmAttempts.length + 1 >= MAX_SLURM_ATTEMPTS ? `${MAX_SLURM_ATTEMPTS} Slurm jobs in a row reached their time limit` : continueAsNewSlurmJob(home, cfg.slurm, now, attemptStartedAt);
    if (refused === null) return;
    detail = `stopped at Slurm's time limit, and the job could not go on: ${refused}`;
  }
  await finish(home, cfg, r, p, { exit, stop, sampler, log, oomBefore, detail: detail ?? proc.detail() });
}
