// The supervisor's side of an import job (there is no recipe process): open the file
// under the allowed roots as they are now and check what was opened (paths.ts), copy and
// hash it from that descriptor in one pass (snapshot.ts), move it into the store, and
// record the outcome. Progress lines `{"type":"progress","bytes","totalBytes"}` go to
// events.jsonl; the cancel flag and the wall deadline are checked between chunks. The
// temp copy lives in the job's work dir and is removed on every way out (reconcile
// removes it too if this process is killed).
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import type { TReceipt, TProcessIdentity } from "../../../contracts/worker/receipt";
import type { TImportReport } from "../../../contracts/worker/responses";
import type { ErrorCode, JobReason, JobState } from "../../../contracts/worker/states";
import type { WorkerConfig } from "../config";
import { WorkerError } from "../errors";
import { isEnospc, releaseInjectedFaults } from "../faults";
import { appendLine, mkdirp, nowIso, sleepSync, writeJsonAtomic } from "../fsx";
import type { Home } from "../home";
import { transition } from "../jobstate";
import { openInRoots, type OpenedFile } from "../paths";
import { copyOpened } from "../snapshot";
import { storeBlob } from "../store-blob";
import type { JobPaths } from "./command";

const ZImportInput = z.object({ path: z.string().min(1) });
const PROGRESS_EVERY_MS = 250;

/** Where an import job keeps its partial copy. */
export function importTempFile(p: JobPaths): string {
  return path.join(p.workDir, "import.part");
}

class StopCopy extends Error {
  constructor(readonly why: "cancel" | "deadline", message: string) {
    super(message);
  }
}

interface ImportOutcome {
  state: JobState;
  reason: JobReason;
  detail: string | null;
  report: TImportReport;
  outputSha256: string | null;
  bytes: number | null;
}

function failed(reason: JobReason, code: ErrorCode, message: string): ImportOutcome {
  return { state: "failed", reason, detail: message, report: { status: "failed", error: { code, message }, import: null }, outputSha256: null, bytes: null };
}

function outcomeOfError(home: Home, err: unknown): ImportOutcome {
  if (err instanceof StopCopy) {
    const state = err.why === "cancel" ? "cancelled" : "timed_out";
    return { ...failed(err.why === "cancel" ? "cancel_requested" : "deadline", "internal", err.message), state };
  }
  if (err instanceof WorkerError) return failed("bad_input", err.code, err.message);
  if (isEnospc(err)) {
    home.freeReserve();
    releaseInjectedFaults();
    return failed("disk_full", "disk_full", `no space left on device while copying: ${(err as Error).message}`);
  }
  return failed("launch_failed", "internal", `the copy failed: ${(err as Error).message}`);
}

export function runImport(home: Home, cfg: WorkerConfig, r0: TReceipt, p: JobPaths, me: TProcessIdentity | null): void {
  const startedAt = Date.now();
  const deadline = startedAt + r0.deadlineSeconds * 1000;
  mkdirp(p.workDir);
  const claim = transition(home, r0.jobId, "running", null, () => ({
    supervisor: me,
    startedAt: new Date(startedAt).toISOString(),
    deadlineAt: new Date(deadline).toISOString(),
  }), ["admitted"]);
  if (!claim.changed) return;

  const tmp = importTempFile(p);
  const delayMs = cfg.testFaults?.importChunkDelayMs ?? 0;
  let src: OpenedFile | null = null;
  let outcome: ImportOutcome;
  let lastProgress = 0;
  let lastStopCheck = 0;
  const progress = (bytes: number, totalBytes: number, force = false) => {
    const now = Date.now();
    if (!force && now - lastProgress < PROGRESS_EVERY_MS) return;
    lastProgress = now;
    try {
      appendLine(p.eventsFile, JSON.stringify({ t: nowIso(), type: "progress", bytes, totalBytes }));
    } catch (err) {
      if (isEnospc(err)) throw err; // the copy would fail next anyway; say so now
    }
  };
  try {
    const input = ZImportInput.parse(JSON.parse(fs.readFileSync(p.inputFile, "utf8")));
    src = openInRoots(input.path, cfg.allowedRoots);
    const copied = copyOpened(src, tmp, input.path, {
      onProgress: (bytes, total) => {
        progress(bytes, total);
        if (delayMs) sleepSync(delayMs);
      },
      shouldStop: () => {
        const now = Date.now();
        if (now >= deadline) return new StopCopy("deadline", `the copy of ${input.path} passed its limit of ${r0.deadlineSeconds} s`);
        if (now - lastStopCheck < 100) return null;
        lastStopCheck = now;
        return fs.existsSync(p.cancelFlag) ? new StopCopy("cancel", `the copy of ${input.path} was cancelled`) : null;
      },
    });
    const dest = fs.existsSync(home.blob(copied.sha256)) ? home.blob(copied.sha256) : storeBlob(home, tmp, copied.sha256);
    progress(copied.bytes, copied.bytes, true);
    outcome = {
      state: "succeeded",
      reason: "completed",
      detail: null,
      report: { status: "completed", error: null, import: { sha256: copied.sha256, bytes: copied.bytes, path: dest } },
      outputSha256: copied.sha256,
      bytes: copied.bytes,
    };
  } catch (err) {
    outcome = outcomeOfError(home, err);
  } finally {
    if (src) fs.closeSync(src.fd);
    fs.rmSync(tmp, { force: true });
  }
  try {
    writeJsonAtomic(p.reportFile, outcome.report);
  } catch {
    // The receipt carries the report too; report.json is a convenience copy.
  }
  transition(home, r0.jobId, outcome.state, outcome.reason, (x) => ({
    detail: outcome.detail,
    report: outcome.report,
    outputSha256: outcome.outputSha256,
    usage: { wallSeconds: (Date.now() - startedAt) / 1000, cpuSeconds: null, peakRssBytes: null, peakPssBytes: null, outputBytes: outcome.bytes },
    supervisor: x.supervisor ?? me,
  }), ["running"]);
}
