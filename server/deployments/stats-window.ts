/**
 * The arithmetic of a release's aggregates, kept free of the database: which minute a
 * request counts in, which minutes make "the last hour", and the figures (requests, errors,
 * p50, p95) of a set of histograms. A percentile is the upper bound of the latency bucket
 * it falls in ("p95 ≤ 250 ms"), never an interpolated value.
 *
 * Limits: buckets are one minute wide, so "the last hour" is the current minute and the 59
 * before it (between 59 and 60 minutes of requests, never one older than an hour); they are
 * kept for RETENTION_MS, then deleted.
 */
import { z } from "zod";

/** Upper bounds (ms) of the latency buckets; slower requests count under "inf". */
export const LATENCY_BUCKETS_MS = [5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000, 30_000, 60_000] as const;

export const BUCKET_MS = 60_000;
export const LAST_HOUR_MS = 60 * 60_000;
/** Minute rows older than this are deleted when a newer request is counted. */
export const RETENTION_MS = 2 * LAST_HOUR_MS;

export const ZCounts = z.record(z.string(), z.number().int().nonnegative());
export type Counts = z.infer<typeof ZCounts>;

/** One stored aggregate (all-time or one minute), its JSON columns already parsed. */
export interface Tally {
  requests: number;
  errors: Counts;
  latencyMs: Counts;
}

/** What a page or the CLI shows of a set of requests. */
export interface WindowFigures {
  requests: number;
  /** Refused or failed requests, all classes together. */
  errors: number;
  /** Upper bound (ms) of the bucket holding the median / 95th percentile; null: slower than the last bucket, or no requests. */
  p50Ms: number | null;
  p95Ms: number | null;
}

export const latencyBucketOf = (ms: number): string => String(LATENCY_BUCKETS_MS.find((b) => ms <= b) ?? "inf");

/** The start of the minute `at` falls in. */
export const bucketStart = (at: Date): Date => new Date(Math.floor(at.getTime() / BUCKET_MS) * BUCKET_MS);

/** Start of the oldest minute that belongs to the last hour before `now`. */
export const lastHourFrom = (now: Date): Date => new Date(bucketStart(now).getTime() - LAST_HOUR_MS + BUCKET_MS);

/** Minute rows that started before this may be deleted. */
export const retainedFrom = (now: Date): Date => new Date(bucketStart(now).getTime() - RETENTION_MS);

/** The bucket bound (ms) under which a fraction `q` of the counted requests lie; null past the last bound. */
export function percentileMs(histogram: Counts, q: number): number | null {
  const total = Object.values(histogram).reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const rank = Math.ceil(q * total);
  let seen = 0;
  for (const bound of LATENCY_BUCKETS_MS) {
    seen += histogram[String(bound)] ?? 0;
    if (seen >= rank) return bound;
  }
  return null;
}

export function addCounts(into: Counts, more: Counts): Counts {
  const out = { ...into };
  for (const [k, n] of Object.entries(more)) out[k] = (out[k] ?? 0) + n;
  return out;
}

/** `t` with one more request: its latency and, for a refusal, its error class. */
export function countRequest(t: Tally, ms: number, errorClass?: string): Tally {
  return {
    requests: t.requests + 1,
    errors: errorClass ? addCounts(t.errors, { [errorClass]: 1 }) : t.errors,
    latencyMs: addCounts(t.latencyMs, { [latencyBucketOf(ms)]: 1 }),
  };
}

export const EMPTY_TALLY: Tally = { requests: 0, errors: {}, latencyMs: {} };

/** A stored aggregate row (DeploymentStats or a minute of it) as a tally; a missing row counts nothing. */
export const tallyOfRow = (row: { requests: number; errors: string; latencyMs: string } | null): Tally =>
  row ? { requests: row.requests, errors: parseCounts(row.errors), latencyMs: parseCounts(row.latencyMs) } : EMPTY_TALLY;

/** The figures of several tallies together (the minutes of a window, say). */
export function figuresOf(tallies: Tally[]): WindowFigures {
  const sum = tallies.reduce((a, t) => ({ requests: a.requests + t.requests, errors: addCounts(a.errors, t.errors), latencyMs: addCounts(a.latencyMs, t.latencyMs) }), EMPTY_TALLY);
  return {
    requests: sum.requests,
    errors: Object.values(sum.errors).reduce((a, b) => a + b, 0),
    p50Ms: percentileMs(sum.latencyMs, 0.5),
    p95Ms: percentileMs(sum.latencyMs, 0.95),
  };
}

/** The figures of the minutes (`start` each) that fall in the last hour before `now`. */
export function lastHourFigures(minutes: (Tally & { start: Date })[], now: Date): WindowFigures {
  const from = lastHourFrom(now).getTime();
  const until = bucketStart(now).getTime();
  return figuresOf(minutes.filter((m) => m.start.getTime() >= from && m.start.getTime() <= until));
}

/** A stored JSON counts column; anything that is not counts reads as none. */
export function parseCounts(json: string): Counts {
  const parsed = ZCounts.safeParse(JSON.parse(json));
  return parsed.success ? parsed.data : {};
}
