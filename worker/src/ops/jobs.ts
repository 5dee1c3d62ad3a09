// inspect, list, logs, cancel: reading and stopping jobs. Reads reconcile first, so a
// job whose supervisor is gone never shows `running` forever.
import fs from "node:fs";
import type { TReceipt } from "../../../contracts/worker/receipt";
import type { z } from "zod";
import type { ZCancelRequest, ZInspectRequest, ZListRequest, ZLogsRequest } from "../../../contracts/worker/requests";
import { isTerminal } from "../../../contracts/worker/states";
import { WorkerError } from "../errors";
import { fileSize, nowIso, readText, writeFileAtomic } from "../fsx";
import { transition } from "../jobstate";
import { launchSupervisor } from "../launch";
import { startWhatFits } from "../ledger";
import { withLock } from "../lock";
import { listReceipts, readReceipt, updateReceipt } from "../receipts";
import { reconcileJob, supervisorGone } from "../reconcile";
import { jobPaths } from "../supervisor/command";
import { cancelInSlurm } from "../slurm/cancel";
import type { Ctx } from "./context";

export function jobIdForOp(ctx: Ctx, opId: string): string {
  const text = readText(ctx.home.opIndex(opId));
  if (!text) throw new WorkerError("not_found", `no job was submitted with opId ${JSON.stringify(opId)}`);
  return (JSON.parse(text) as { jobId: string }).jobId;
}

/** Read + reconcile; a job that just became terminal frees its slot for the queue. */
export function currentReceipt(ctx: Ctx, jobId: string): TReceipt {
  const before = readReceipt(ctx.home, jobId);
  const after = reconcileJob(ctx.home, before);
  // A Slurm computer's queued job waits for Slurm's controller, and nothing else ends to move the queue: asking moves it.
  const waitsForSlurm = ctx.cfg.slurm !== null && (after.state === "queued" || after.slurmRetry !== null);
  if (after.state !== before.state || waitsForSlurm) {
    startWhatFits(ctx.home, ctx.cfg);
    return waitsForSlurm ? readReceipt(ctx.home, jobId) : after;
  }
  return after;
}

export function inspect(ctx: Ctx, req: z.output<typeof ZInspectRequest>) {
  const jobId = req.jobId ?? jobIdForOp(ctx, req.opId!);
  const r = currentReceipt(ctx, jobId);
  if (isTerminal(r.state)) return { receipt: r };
  // Live sizes for an active job (the receipt file records them at the end).
  const p = jobPaths(r.jobDir);
  return { receipt: { ...r, logBytes: fileSize(p.logFile), eventsBytes: fileSize(p.eventsFile) } };
}

export function list(ctx: Ctx, req: z.output<typeof ZListRequest>) {
  startWhatFits(ctx.home, ctx.cfg); // reconciles every active job, moves the queue
  const { receipts, problems } = listReceipts(ctx.home);
  const wanted = req.states ? new Set(req.states) : null;
  return { receipts: wanted ? receipts.filter((r) => wanted.has(r.state)) : receipts, problems };
}

/** Cut a chunk at the last complete UTF-8 character so offsets stay byte-exact. */
function utf8Boundary(buf: Buffer): number {
  const end = buf.length;
  for (let back = 1; back <= 3 && end - back >= 0; back++) {
    const b = buf[end - back]!;
    if ((b & 0xc0) === 0x80) continue; // continuation byte
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return back < need ? end - back : end;
  }
  return end;
}

export function logs(ctx: Ctx, req: z.output<typeof ZLogsRequest>) {
  const r = currentReceipt(ctx, req.jobId);
  const p = jobPaths(r.jobDir);
  const file = req.stream === "log" ? p.logFile : p.eventsFile;
  let size = 0;
  let data = Buffer.alloc(0);
  if (fs.existsSync(file)) {
    const fd = fs.openSync(file, "r");
    try {
      size = fs.fstatSync(fd).size;
      const want = Math.max(0, Math.min(req.maxBytes, size - req.offset));
      const buf = Buffer.alloc(want);
      const n = want ? fs.readSync(fd, buf, 0, want, req.offset) : 0;
      data = buf.subarray(0, n);
    } finally {
      fs.closeSync(fd);
    }
  }
  // Only trim a partial character when more bytes follow; at the end return what there is.
  const cut = req.offset + data.length < size || !isTerminal(r.state) ? utf8Boundary(data) : data.length;
  const nextOffset = req.offset + cut;
  return {
    data: data.subarray(0, cut).toString("utf8"),
    offset: req.offset,
    nextOffset,
    size,
    eof: isTerminal(r.state) && nextOffset >= size,
    droppedBytes: req.stream === "log" ? r.logDroppedBytes : 0,
  };
}

export function cancel(ctx: Ctx, req: z.output<typeof ZCancelRequest>) {
  const { home } = ctx;
  const r = currentReceipt(ctx, req.jobId);
  if (isTerminal(r.state)) return { receipt: r };
  if (r.state === "queued") {
    // Under the ledger lock so the job cannot be admitted between our read and the cancel.
    const t = withLock(home.lock("ledger"), "ledger", () =>
      transition(home, r.jobId, "cancelled", "cancel_requested", () => ({ cancelRequestedAt: nowIso() }), ["queued"]),
    );
    if (t.changed) return { receipt: t.receipt };
  }
  // The flag is durable before any signal: it survives a crash of this process or the supervisor.
  const flagged = updateReceipt(home, r.jobId, (x) => (x.cancelRequestedAt || isTerminal(x.state) ? null : { ...x, cancelRequestedAt: nowIso() }));
  const p = jobPaths(flagged.jobDir);
  if (fs.existsSync(p.jobDir)) writeFileAtomic(p.cancelFlag, flagged.cancelRequestedAt ?? nowIso());
  if (flagged.slurm) cancelInSlurm(home, flagged);
  else if (flagged.state === "unknown" || (flagged.state !== "queued" && !isTerminal(flagged.state) && supervisorGone(flagged))) {
    launchSupervisor(home, flagged.jobId, ["--reap"]);
  }
  return { receipt: currentReceipt(ctx, flagged.jobId) };
}
