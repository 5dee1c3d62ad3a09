// Resource ledger and the "start what fits" routine. ledger.json maps jobId -> the
// resources it holds (CPU slots, RAM, whole GPUs, or memory on a shared GPU).
// Everything here runs under the ledger lock, the single global lock; it is taken
// before any job lock, never after (lock order: ledger -> job).
// Queue policy: priority (higher first) then admission order, strictly — a job that
// does not fit blocks the ones behind it (no backfill), so a large job is never starved.
import fs from "node:fs";
import { z } from "zod";
import { ZReservation, type TReceipt, type TReservation, type TWaitingFor } from "../../contracts/worker/receipt";
import type { TResources } from "../../contracts/worker/requests";
import { isTerminal } from "../../contracts/worker/states";
import type { WorkerConfig } from "./config";
import { readText, writeJsonAtomic, nowIso } from "./fsx";
import { detectGpus } from "./gpus";
import type { Home } from "./home";
import { withLock } from "./lock";
import { listReceipts, updateReceipt } from "./receipts";
import { discoverRecipes } from "./recipes";
import { transition } from "./jobstate";
import { launchSupervisor } from "./launch";
import { slurmControllerProblem } from "./slurm/commands";
import { slurmFor } from "./slurm/placement";
import { gatherArrays, submitArrayToSlurm } from "./slurm/array";
import { submitToSlurm } from "./slurm/submit";
import { reconcileJob } from "./reconcile";

export interface Ledger {
  reservations: Record<string, TReservation>;
}

const NO_RESERVATION: TReservation = { cpus: 0, ramGb: 0, gpuIds: [], gpuShare: null };

export interface GpuSlot {
  id: string;
  memoryGb: number;
}

const ZLedger = z.object({ reservations: z.record(z.string(), ZReservation) });

/** Reservations held by jobs that may still run, as their receipts record them. */
function ledgerFromReceipts(home: Home): Ledger {
  const reservations: Record<string, TReservation> = {};
  for (const r of listReceipts(home).receipts) {
    if ((r.state === "admitted" || r.state === "running" || r.state === "unknown") && r.reservation) reservations[r.jobId] = r.reservation;
  }
  return { reservations };
}

/**
 * The ledger; call under the ledger lock. It is derived state, so a missing or unreadable
 * ledger.json is rebuilt from the receipts of admitted, running and unknown jobs (an
 * empty one would hand their CPUs and GPUs out twice); a damaged file is kept beside it
 * as `ledger.json.damaged-<time>` for inspection.
 */
export function readLedger(home: Home): Ledger {
  const text = readText(home.ledger());
  if (text !== null) {
    try {
      const parsed = ZLedger.safeParse(JSON.parse(text));
      if (parsed.success) return parsed.data;
    } catch {
      // not JSON: damaged, handled below
    }
    fs.renameSync(home.ledger(), `${home.ledger()}.damaged-${new Date().toISOString().replace(/[:.]/g, "-")}`);
  }
  const rebuilt = ledgerFromReceipts(home);
  writeJsonAtomic(home.ledger(), rebuilt);
  return rebuilt;
}

export function gpuSlots(cfg: WorkerConfig, needGpus: boolean): GpuSlot[] {
  if (!needGpus && cfg.capacity.gpus === 0) return [];
  const detected = needGpus || cfg.capacity.gpus === null ? detectGpus().gpus : [];
  const slots = detected.map((g) => ({ id: g.uuid, memoryGb: g.memoryTotalBytes / 1024 ** 3 }));
  const n = cfg.capacity.gpus ?? slots.length;
  while (slots.length < n) slots.push({ id: `gpu-${slots.length}`, memoryGb: Number.POSITIVE_INFINITY });
  return slots.slice(0, n);
}

export function capacityError(cfg: WorkerConfig, r: TResources): string | null {
  if (r.cpus > cfg.capacity.cpus) return `asks ${r.cpus} CPUs, the worker has ${cfg.capacity.cpus}`;
  if (r.ramGb > cfg.capacity.ramGb) return `asks ${r.ramGb} GB RAM, the worker has ${cfg.capacity.ramGb}`;
  if ((r.gpus ?? 0) > 0 || r.gpuMemoryGb) {
    const slots = gpuSlots(cfg, true);
    if ((r.gpus ?? 0) > slots.length) return `asks ${r.gpus} GPUs, the worker has ${slots.length}`;
    if (r.gpuMemoryGb && !slots.some((s) => s.memoryGb >= r.gpuMemoryGb!)) {
      return `asks ${r.gpuMemoryGb} GB on one GPU, no GPU here has that much (${slots.length} GPUs)`;
    }
  }
  return null;
}

/**
 * What a job holds in the ledger. A resident (serving) job holds its memory budget but no
 * CPU: it lives for days and is idle between requests, so counting a CPU would keep a
 * training that wants the whole computer waiting behind it on a small machine. Its
 * reservation then says 0 CPUs, which caps its threads to one (supervisor/command.ts).
 */
export function ledgerResources(r: TResources, resident: boolean): TResources {
  return resident ? { ...r, cpus: 0 } : r;
}

/**
 * The words of a wait, as `queuedReason` has always said them (old readers show them);
 * the only place they are made from the typed value.
 */
export function waitingWords(w: TWaitingFor): string {
  switch (w.resource) {
    case "cpus":
      return `waiting for CPUs (${w.reserved}/${w.capacity} reserved, needs ${w.needs})`;
    case "ram":
      return `waiting for RAM (${w.reserved}/${w.capacity} GB reserved, needs ${w.needs})`;
    case "gpus":
      return `waiting for ${w.needs} free GPU(s) (${(w.capacity ?? 0) - w.reserved} free)`;
    case "gpu_memory":
      return `waiting for ${w.needs} GB of GPU memory`;
  }
}

export interface Fit {
  reservation: TReservation | null;
  /** Words for a job that does not fit ("" when it fits). */
  reason: string;
  /** The same, typed (contracts/worker/receipt.ts ZWaitingFor); null when it fits. */
  waitingFor: TWaitingFor | null;
}

/** Try to reserve `r` given current reservations; null + why (typed and in words) when it does not fit. */
export function fit(cfg: WorkerConfig, ledger: Ledger, r: TResources, slotsFor: () => GpuSlot[] = () => gpuSlots(cfg, true)): Fit {
  const entries = Object.entries(ledger.reservations);
  const held = entries.map(([, h]) => h);
  const holders = (holds: (h: TReservation) => boolean) => entries.filter(([, h]) => holds(h)).map(([jobId]) => jobId);
  const waits = (w: TWaitingFor): Fit => ({ reservation: null, reason: waitingWords(w), waitingFor: w });
  const cpus = held.reduce((s, h) => s + h.cpus, 0);
  const ram = held.reduce((s, h) => s + h.ramGb, 0);
  if (cpus + r.cpus > cfg.capacity.cpus) return waits({ resource: "cpus", needs: r.cpus, reserved: cpus, capacity: cfg.capacity.cpus, holders: holders((h) => h.cpus > 0) });
  if (ram + r.ramGb > cfg.capacity.ramGb) return waits({ resource: "ram", needs: r.ramGb, reserved: ram, capacity: cfg.capacity.ramGb, holders: holders((h) => h.ramGb > 0) });
  const wantGpus = r.gpus ?? 0;
  const slots = wantGpus > 0 || r.gpuMemoryGb ? slotsFor() : [];
  const exclusive = new Set(held.flatMap((h) => h.gpuIds));
  const shared = new Map<string, number>();
  for (const h of held) if (h.gpuShare) shared.set(h.gpuShare.gpuId, (shared.get(h.gpuShare.gpuId) ?? 0) + h.gpuShare.memoryGb);
  const gpuHolders = () => holders((h) => h.gpuIds.length > 0 || h.gpuShare !== null);
  let gpuIds: string[] = [];
  if (wantGpus > 0) {
    const free = slots.filter((s) => !exclusive.has(s.id) && !shared.has(s.id));
    if (free.length < wantGpus) return waits({ resource: "gpus", needs: wantGpus, reserved: slots.length - free.length, capacity: slots.length, holders: gpuHolders() });
    gpuIds = free.slice(0, wantGpus).map((s) => s.id);
  }
  let gpuShare: TReservation["gpuShare"] = null;
  if (r.gpuMemoryGb) {
    const slot = slots.find((s) => !exclusive.has(s.id) && (shared.get(s.id) ?? 0) + r.gpuMemoryGb! <= s.memoryGb);
    if (!slot) return waits({ resource: "gpu_memory", needs: r.gpuMemoryGb, ...roomiestGpu(slots, exclusive, shared), holders: gpuHolders() });
    gpuShare = { gpuId: slot.id, memoryGb: r.gpuMemoryGb };
  }
  return { reservation: { cpus: r.cpus, ramGb: r.ramGb, gpuIds, gpuShare }, reason: "", waitingFor: null };
}

/** What is reserved on the GPU with the most room, and its memory (null: unknown). A GPU held whole has no room. */
function roomiestGpu(slots: GpuSlot[], exclusive: Set<string>, shared: Map<string, number>): { reserved: number; capacity: number | null } {
  let best: { reserved: number; capacity: number | null; room: number } | null = null;
  for (const s of slots) {
    const capacity = Number.isFinite(s.memoryGb) ? s.memoryGb : null;
    const reserved = exclusive.has(s.id) ? (capacity ?? 0) : (shared.get(s.id) ?? 0);
    const room = exclusive.has(s.id) ? 0 : s.memoryGb - reserved;
    if (!best || room > best.room) best = { reserved, capacity, room };
  }
  return best ? { reserved: best.reserved, capacity: best.capacity } : { reserved: 0, capacity: null };
}

export function diskFreeBytes(dir: string): number | null {
  try {
    const s = fs.statfsSync(dir);
    return Number(s.bavail) * Number(s.bsize);
  } catch {
    return null;
  }
}

export function queueOrder(a: TReceipt, b: TReceipt): number {
  return b.priority - a.priority || a.seq - b.seq;
}

/**
 * Reconcile active jobs, release reservations of finished ones, then admit queued jobs in
 * order while they fit and launch their supervisors. Called by submit, by inspect/list
 * after a reconcile, and by every finishing supervisor — so the queue moves with no
 * controller running.
 */
export function startWhatFits(home: Home, cfg: WorkerConfig): void {
  withLock(home.lock("ledger"), "ledger", () => {
    const ledger = readLedger(home);
    let receipts = listReceipts(home).receipts.map((r) => reconcileJob(home, r));
    const all = receipts;
    const byId = new Map(receipts.map((r) => [r.jobId, r]));
    let dirty = false;
    for (const jobId of Object.keys(ledger.reservations)) {
      const r = byId.get(jobId);
      if (!r || isTerminal(r.state)) {
        delete ledger.reservations[jobId];
        dirty = true;
        if (r && !r.reservationReleasedAt) updateReceipt(home, jobId, (x) => ({ ...x, reservationReleasedAt: nowIso() }));
      }
    }
    // Admitted jobs whose sbatch did not reach Slurm's controller go now, if it answers.
    for (const r of receipts.filter((x) => x.state === "admitted" && x.slurmRetry && !x.slurm)) {
      if (cfg.slurm && !slurmControllerProblem(cfg.slurm, home.p("slurm-controller.json"))) submitToSlurm(home, cfg.slurm, r);
    }
    receipts = receipts.filter((r) => r.state === "queued").sort(queueOrder);
    const free = diskFreeBytes(home.root);
    const diskLow = free !== null && free < cfg.minFreeDiskBytes ? `disk_low: ${free} bytes free in ${home.root}, below minFreeDiskBytes ${cfg.minFreeDiskBytes}` : null;
    let resident: Set<string> | null = null;
    const isResident = (recipe: string) => (resident ??= new Set(discoverRecipes(cfg.trainingDir).recipes.filter((x) => x.resident).map((x) => x.name))).has(recipe);
    /** Records the job admitted; the admitted receipt, or null when another pass took it first. */
    const record = (q: TReceipt, reservation: TReservation): TReceipt | null => {
      ledger.reservations[q.jobId] = reservation;
      writeJsonAtomic(home.ledger(), ledger);
      dirty = false;
      const t = transition(home, q.jobId, "admitted", null, () => ({ admittedAt: nowIso(), reservation, queuedReason: null, waitingFor: null }), ["queued"]);
      return t.changed ? t.receipt : null;
    };
    const admit = (q: TReceipt, reservation: TReservation) => {
      const admitted = record(q, reservation);
      if (!admitted) return;
      const slurm = slurmFor(cfg, { kind: q.kind, resident: isResident(q.recipe) });
      if (slurm) submitToSlurm(home, slurm, admitted);
      else launchSupervisor(home, q.jobId);
    };
    const arrayJobs: TReceipt[] = [];
    // The holders can change while the words stay the same: both are compared.
    const waits = (q: TReceipt, reason: string, waitingFor: TWaitingFor | null = null) => {
      if (q.queuedReason === reason && JSON.stringify(q.waitingFor) === JSON.stringify(waitingFor)) return;
      updateReceipt(home, q.jobId, (x) => (x.state === "queued" ? { ...x, queuedReason: reason, waitingFor } : null));
    };
    // Imports reserve nothing and skip the queue (ops/import.ts); only a low disk holds them.
    for (const q of receipts.filter((r) => r.kind === "import")) {
      if (diskLow && !ledger.reservations[q.jobId]) waits(q, diskLow);
      else admit(q, ledger.reservations[q.jobId] ?? NO_RESERVATION);
    }
    for (const q of receipts.filter((r) => r.kind !== "import")) {
      let reservation = ledger.reservations[q.jobId] ?? null; // reserved before a crash
      let reason = "";
      let waitingFor: TWaitingFor | null = null;
      // Slurm keeps a Slurm computer's queue: its jobs hold nothing in this ledger, and wait here only while Slurm cannot take them.
      const slurm = reservation ? null : slurmFor(cfg, { kind: q.kind, resident: isResident(q.recipe) });
      if (slurm) {
        const down = slurmControllerProblem(slurm, home.p("slurm-controller.json"));
        if (down) waits(q, down);
        else if (q.slurmArray) arrayJobs.push(q);
        else admit(q, NO_RESERVATION);
        continue;
      }
      if (!reservation && diskLow) reason = diskLow;
      else if (!reservation) ({ reservation, reason, waitingFor } = fit(cfg, ledger, ledgerResources(q.resources, q.kind !== "prepare" && isResident(q.recipe))));
      if (!reservation) {
        waits(q, reason, waitingFor);
        break;
      }
      admit(q, reservation);
    }
    if (arrayJobs.length && cfg.slurm) {
      const gathered = gatherArrays(arrayJobs, all, Date.now());
      for (const w of gathered.wait) waits(w.receipt, w.reason);
      for (const group of gathered.send) {
        const admitted = group.flatMap((q) => record(q, NO_RESERVATION) ?? []);
        if (admitted.length) submitArrayToSlurm(home, cfg.slurm, admitted);
      }
    }
    if (dirty) writeJsonAtomic(home.ledger(), ledger);
  });
}
