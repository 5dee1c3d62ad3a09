/**
 * The request path's side of a monitor: each request its release answers or refuses is
 * counted in memory into the monitor's open window (requests, errors by class, latency
 * buckets, and each row's bin per column: binning.ts), and written with one transaction
 * per flush, like the deployment's own aggregates (request-counts.ts): FLUSH_MS after the
 * first unwritten request, before any read, before the database closes. A flush that fails
 * puts its counts back. A window closes at exactly `windowRequests` requests: this process
 * is the only writer of windows, so it knows the open window's count without reading it.
 *
 * What a kill -9 of the server loses: the last FLUSH_MS of counts of the open window,
 * never a count twice (a flush adds its counts once, in one transaction).
 */
import { ZHealthPolicy } from "@/contracts/monitoring/monitoring";
import { ZReference, type Reference } from "@/contracts/recipes/data";
import type { Db } from "@/server/db/client";
import { countsInMemory } from "@/server/db/counts-in-memory";
import { parseStoredJson } from "@/server/db/stored-json";
import { observeRequests, type ObservedRequest } from "@/server/deployments/request-observers";
import { addCounts, latencyBucketOf, parseCounts, type Counts } from "@/server/deployments/stats-window";
import { FLUSH_MS } from "@/server/deployments/request-counts";
import { addHistograms, countRows, ZHistograms, type Histograms } from "./binning";

interface Watcher {
  monitorId: string;
  windowRequests: number;
  reference: Reference;
  /** An armed health policy's limit of failed requests in a row: reached, the window closes at once. */
  consecutiveErrors: number | null;
}

/** Counts of one window not written yet; `close` once the window is full (or checked now). */
interface Delta {
  monitorId: string;
  seq: number;
  requests: number;
  rows: number;
  errors: Counts;
  latencyMs: Counts;
  histograms: Histograms;
  /** The longest run of failed requests in a row seen in this window. */
  errorStreak: number;
  close: boolean;
}

interface OpenWindow {
  seq: number;
  requests: number;
  /** Failed requests in a row up to now. */
  streak: number;
}

interface State {
  /** release id → the monitors watching it (loaded once, dropped when a monitor moves). */
  watchers: Map<string, Promise<Watcher[]>>;
  /** monitor id → its open window as this process counts it (written and unwritten). */
  open: Map<string, OpenWindow>;
  loading: Map<string, Promise<void>>;
  pending: Map<string, Delta>;
  timer: NodeJS.Timeout | null;
  flushing: Promise<void> | null;
}

const stateOf = countsInMemory<State>(
  "monitorWindowCounts",
  () => ({ watchers: new Map(), open: new Map(), loading: new Map(), pending: new Map(), timer: null, flushing: null }),
  (db) => flushWindowCounts(db),
);

async function loadWatchers(db: Db, releaseId: string): Promise<Watcher[]> {
  const rows = await db.monitor.findMany({ where: { releaseId, state: "watching" } });
  return rows.flatMap((m) => {
    const reference = parseStoredJson(ZReference, m.reference);
    const policy = m.policyState === "armed" ? parseStoredJson(ZHealthPolicy, m.policy) : null;
    return reference ? [{ monitorId: m.id, windowRequests: m.windowRequests, reference, consecutiveErrors: policy?.consecutiveErrors ?? null }] : [];
  });
}

async function loadOpen(db: Db, monitorId: string): Promise<OpenWindow> {
  const last = await db.monitorWindow.findFirst({ where: { monitorId }, orderBy: { seq: "desc" }, select: { seq: true, requests: true, closedAt: true } });
  if (!last) return { seq: 1, requests: 0, streak: 0 };
  return last.closedAt ? { seq: last.seq + 1, requests: 0, streak: 0 } : { seq: last.seq, requests: last.requests, streak: 0 };
}

/**
 * Makes sure the open window was read from the database. The caller then takes it with
 * `s.open.get` in the same synchronous step it counts in: a value returned through a
 * promise would be stale by the time an awaiting caller runs (another count closed it).
 */
async function loadedOpen(db: Db, s: State, monitorId: string): Promise<void> {
  let loading = s.loading.get(monitorId);
  if (!loading) {
    loading = loadOpen(db, monitorId)
      .then((o) => void (s.open.has(monitorId) || s.open.set(monitorId, o)))
      .finally(() => s.loading.delete(monitorId));
    s.loading.set(monitorId, loading);
  }
  await loading;
}

function deltaOf(s: State, monitorId: string, seq: number): Delta {
  const key = `${monitorId}\u0000${seq}`;
  let d = s.pending.get(key);
  if (!d) s.pending.set(key, (d = { monitorId, seq, requests: 0, rows: 0, errors: {}, latencyMs: {}, histograms: {}, errorStreak: 0, close: false }));
  return d;
}

function scheduleFlush(db: Db, s: State): void {
  if (s.timer) return;
  s.timer = setTimeout(() => {
    s.timer = null;
    flushWindowCounts(db).catch((err: unknown) => console.error(`monitor window counts not written yet (kept for the next flush): ${String(err)}`));
  }, FLUSH_MS);
  s.timer.unref();
}

const bump = (counts: Counts, key: string) => void (counts[key] = (counts[key] ?? 0) + 1);

async function count(db: Db, s: State, w: Watcher, r: ObservedRequest): Promise<void> {
  if (!s.open.has(w.monitorId)) await loadedOpen(db, s, w.monitorId);
  const open = s.open.get(w.monitorId)!;
  const d = deltaOf(s, w.monitorId, open.seq);
  d.requests += 1;
  // In place: a delta is this process's own until a flush takes it.
  if (r.errorClass) bump(d.errors, r.errorClass);
  bump(d.latencyMs, latencyBucketOf(r.ms));
  if (r.rows) {
    d.rows += r.rows.length;
    countRows(w.reference, r.rows, d.histograms);
  }
  open.requests += 1;
  open.streak = r.errorClass ? open.streak + 1 : 0;
  d.errorStreak = Math.max(d.errorStreak, open.streak);
  const errorsInARow = w.consecutiveErrors !== null && open.streak >= w.consecutiveErrors;
  if (open.requests >= w.windowRequests || errorsInARow) {
    d.close = true;
    // A run of errors goes on into the next window, unless it just closed this one.
    s.open.set(w.monitorId, { seq: open.seq + 1, requests: 0, streak: errorsInARow ? 0 : open.streak });
  }
  // Errors in a row are the health policy's at once, not in FLUSH_MS.
  if (errorsInARow) void flushWindowCounts(db).catch((err: unknown) => console.error(`monitor window counts not written yet: ${String(err)}`));
  else scheduleFlush(db, s);
}

function observe(db: Db, r: ObservedRequest): void {
  const s = stateOf(db);
  let watchers = s.watchers.get(r.releaseId);
  if (!watchers) s.watchers.set(r.releaseId, (watchers = loadWatchers(db, r.releaseId)));
  // The rows are read once, here, and only their bins' counts stay.
  void watchers
    .then(async (ws) => {
      for (const w of ws) await count(db, s, w, r);
    })
    .catch((err: unknown) => console.error(`monitor: a request was not counted: ${(err as Error).message}`));
}

/** Starts counting requests for monitors (idempotent; the server calls it at start). */
export function countRequestsForMonitors(): void {
  observeRequests("monitors", observe);
}

/** After a monitor moved (made, paused, resumed): its release's watchers are read again at the next request. */
export function forgetWatchers(db: Db, releaseId: string): void {
  stateOf(db).watchers.delete(releaseId);
}

/** Closes the monitor's open window now, whatever its count (`monitors check`); written by the next flush. */
export async function closeWindowNow(db: Db, monitorId: string): Promise<void> {
  const s = stateOf(db);
  if (!s.open.has(monitorId)) await loadedOpen(db, s, monitorId);
  const open = s.open.get(monitorId)!;
  deltaOf(s, monitorId, open.seq).close = true;
  s.open.set(monitorId, { seq: open.seq + 1, requests: 0, streak: 0 });
}

function merge(into: Delta, d: Delta): void {
  into.requests += d.requests;
  into.rows += d.rows;
  into.errors = addCounts(into.errors, d.errors);
  into.latencyMs = addCounts(into.latencyMs, d.latencyMs);
  into.histograms = addHistograms(into.histograms, d.histograms);
  into.errorStreak = Math.max(into.errorStreak, d.errorStreak);
  into.close ||= d.close;
}

/** Writes every window count taken so far (one transaction); reads after it include them. */
export async function flushWindowCounts(db: Db): Promise<void> {
  const s = stateOf(db);
  while (s.flushing) await s.flushing;
  if (s.pending.size === 0) return;
  const taken = [...s.pending.values()].sort((a, b) => a.seq - b.seq);
  s.pending = new Map();
  s.flushing = writeDeltas(db, taken)
    .catch((err: unknown) => {
      for (const d of taken) merge(deltaOf(s, d.monitorId, d.seq), d);
      throw err;
    })
    .finally(() => {
      s.flushing = null;
    });
  await s.flushing;
}

async function writeDeltas(db: Db, deltas: Delta[]): Promise<void> {
  const now = new Date();
  await db.$transaction(async (tx) => {
    for (const d of deltas) {
      const key = { monitorId_seq: { monitorId: d.monitorId, seq: d.seq } };
      const had = await tx.monitorWindow.findUnique({ where: key });
      const sums = {
        requests: (had?.requests ?? 0) + d.requests,
        rows: (had?.rows ?? 0) + d.rows,
        errors: JSON.stringify(addCounts(had ? parseCounts(had.errors) : {}, d.errors)),
        latencyMs: JSON.stringify(addCounts(had ? parseCounts(had.latencyMs) : {}, d.latencyMs)),
        histograms: JSON.stringify(addHistograms(parseStoredJson(ZHistograms, had?.histograms ?? null) ?? {}, d.histograms)),
        errorStreak: Math.max(had?.errorStreak ?? 0, d.errorStreak),
        ...(d.close && !had?.closedAt ? { closedAt: now } : {}),
      };
      await tx.monitorWindow.upsert({ where: key, create: { monitorId: d.monitorId, seq: d.seq, ...sums }, update: sums });
    }
  });
}
