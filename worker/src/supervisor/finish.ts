// The end of a run: from how the recipe's process group ended (exit, stop cause, usage,
// log) to the terminal receipt. Verifies and freezes outputs, reads disk-full and OOM
// evidence, picks the outcome (outcome.ts), and records it; a full disk while recording
// is itself recorded as disk_full with the outputs discarded.
import fs from "node:fs";
import type { TReceipt } from "../../../contracts/worker/receipt";
import type { WorkerConfig } from "../config";
import { isEnospc, releaseInjectedFaults } from "../faults";
import { fileSize, writeJsonAtomic } from "../fsx";
import type { Home } from "../home";
import { transition } from "../jobstate";
import { diskFreeBytes } from "../ledger";
import { cgroupOomKills } from "../proc";
import { resolveRef, unindexOutput } from "../inputs";
import { envReady } from "../recipes";
import type { JobPaths } from "./command";
import type { CappedLog } from "./logcap";
import { freezeOutputs, verifyManifest } from "./manifest";
import { decideOutcome, type ExitKind, type StopCause } from "./outcome";
import type { UsageSampler } from "./usage";

export interface RunResult {
  exit: ExitKind;
  stop: StopCause;
  sampler: UsageSampler;
  log: CappedLog;
  oomBefore: number | null;
  detail: string | null;
}

function readReport(file: string): unknown {
  try {
    const st = fs.statSync(file);
    if (st.size > 1024 * 1024) return { status: "unknown", error: { message: `report.json is ${st.size} bytes; not copied` } };
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

function diskFullEvidence(p: JobPaths, logFile: string): boolean {
  const free = diskFreeBytes(p.jobDir);
  if (free !== null && free < 64 * 1024) return true;
  try {
    const size = fileSize(logFile);
    const fd = fs.openSync(logFile, "r");
    const buf = Buffer.alloc(Math.min(size, 16 * 1024));
    fs.readSync(fd, buf, 0, buf.length, Math.max(0, size - buf.length));
    fs.closeSync(fd);
    return /No space left on device|ENOSPC|\[Errno 28\]/.test(buf.toString("utf8"));
  } catch {
    return false;
  }
}

export function discardOutputs(p: JobPaths): void {
  // Rename first (atomic: nothing half-written stays under output/), then delete.
  const away = `${p.outputDir}.discarded-${Date.now()}`;
  try {
    fs.renameSync(p.outputDir, away);
  } catch {
    // no output dir
  }
  fs.rmSync(away, { recursive: true, force: true });
}

export async function finish(home: Home, cfg: WorkerConfig, r: TReceipt, p: JobPaths, run: RunResult): Promise<void> {
  const { exit, stop } = run;
  let detail = run.detail;
  let manifestOk: boolean | null = null;
  let outputSha256: string | null = null;
  let outputBytes: number | null = null;
  let files: Array<{ path: string; bytes: number; sha256: string }> = [];
  const exitedZero = exit.kind === "exited" && exit.code === 0;
  if (exitedZero && !stop && r.kind === "run") {
    const check = await verifyManifest(p.outputDir, { maxFiles: cfg.maxManifestFiles, maxBytes: cfg.maxOutputBytes });
    manifestOk = check.ok;
    if (check.ok) {
      outputSha256 = check.outputSha256;
      outputBytes = check.totalBytes;
      files = check.files;
    } else detail = check.problem;
  }
  if (exitedZero && !stop && r.kind === "prepare" && !envReady(cfg.envsDir, r.environmentId)) {
    manifestOk = false;
    detail = `build_env.py exited 0 but ${r.environmentId}/ready.json is missing`;
  }
  const oomAfter = cgroupOomKills();
  const oomKilled = run.oomBefore !== null && oomAfter !== null && oomAfter > run.oomBefore;
  const evidence = exit.kind !== "exited" || exit.code !== 0 ? diskFullEvidence(p, p.logFile) : false;
  let outcome = decideOutcome({ stop, exit, manifestOk, oomKilled, diskFullEvidence: evidence });
  if (outcome.reason === "manifest_invalid" && r.kind === "prepare") outcome = { state: "failed", reason: "exit_code" };

  if (outcome.state === "succeeded" && r.kind === "run" && outputSha256) {
    try {
      freezeOutputs(p.outputDir, files);
      // Two jobs with identical outputs share one hash. The index keeps naming a job whose
      // output is already usable: pointed at this one, whose receipt becomes final only
      // below, a job admitted in between would find the output missing.
      if (!resolveRef(home, outputSha256)) writeJsonAtomic(home.outputIndex(outputSha256), { jobId: r.jobId, outputDir: p.outputDir });
    } catch (err) {
      if (!isEnospc(err)) throw err;
      home.freeReserve();
      releaseInjectedFaults();
      unindexOutput(home, outputSha256, r.jobId);
      outcome = { state: "failed", reason: "disk_full" };
      detail = `no space left on device while recording outputs`;
    }
  }
  // A process killed from outside leaves no message of its own; say what stopped it, so the
  // page can name the usual cause (the kernel's out-of-memory killer sends SIGKILL).
  if (outcome.reason === "exit_code" && exit.kind === "signalled" && !stop) detail = detail ?? `the process was stopped by ${exit.signal}`;
  if (outcome.reason === "disk_full") {
    discardOutputs(p);
    outputSha256 = null;
    detail = detail ?? "the recipe failed with no space left on device";
  }
  const patch = (x: TReceipt): Partial<TReceipt> => ({
    exitCode: exit.kind === "exited" ? exit.code : null,
    signal: exit.kind === "signalled" ? exit.signal : null,
    detail,
    report: readReport(p.reportFile),
    outputSha256,
    logBytes: run.log.bytes,
    logDroppedBytes: run.log.dropped,
    eventsBytes: fileSize(p.eventsFile),
    usage: {
      wallSeconds: (Date.now() - Date.parse(x.startedAt ?? x.createdAt)) / 1000,
      cpuSeconds: run.sampler.cpuSeconds,
      peakRssBytes: run.sampler.peakRssBytes,
      peakPssBytes: run.sampler.peakPssBytes,
      outputBytes,
    },
  });
  try {
    transition(home, r.jobId, outcome.state, outcome.reason, patch, ["running"]);
  } catch (err) {
    if (!isEnospc(err)) throw err;
    // A real full disk: free the reserve file and record the outcome as disk_full.
    home.freeReserve();
    releaseInjectedFaults();
    if (outcome.state === "succeeded") discardOutputs(p);
    transition(home, r.jobId, "failed", "disk_full", (x) => ({ ...patch(x), outputSha256: null, detail: "no space left on device while recording the outcome" }), ["running"]);
  }
}
