/**
 * Each reconciler's sweeps, read by /metrics. On globalThis: the reconcilers run in the
 * server entry's module graph, the metrics route in Next.js's bundle, both in one process.
 */
export interface SweepStats {
  startedAt: number | null;
  /** When the last sweep ended with every row advanced without an error. */
  lastSuccessAt: number | null;
  sweeps: number;
  /** Sweeps in which listing the rows or advancing one of them failed. */
  failedSweeps: number;
}

const KEY = Symbol.for("trainyard.reconcilerStats");

function all(): Map<string, SweepStats> {
  const g = globalThis as { [KEY]?: Map<string, SweepStats> };
  return (g[KEY] ??= new Map());
}

export function sweepStats(reconciler: string): SweepStats {
  const known = all().get(reconciler);
  if (known) return known;
  const fresh: SweepStats = { startedAt: null, lastSuccessAt: null, sweeps: 0, failedSweeps: 0 };
  all().set(reconciler, fresh);
  return fresh;
}

export function everySweepStats(): [string, SweepStats][] {
  return [...all().entries()].sort(([a], [b]) => a.localeCompare(b));
}
