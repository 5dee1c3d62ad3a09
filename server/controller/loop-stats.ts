/**
 * Reconcile loop health, read by /metrics. On globalThis: the loop runs in the server
 * entry's module graph, the metrics route in Next.js's bundle, both in one process.
 */
export interface LoopStats {
  startedAt: number | null;
  lastSuccessAt: number | null;
  passes: number;
  failedPasses: number;
}

const KEY = Symbol.for("trainyard.reconcileStats");

export function loopStats(): LoopStats {
  const g = globalThis as { [KEY]?: LoopStats };
  return (g[KEY] ??= { startedAt: null, lastSuccessAt: null, passes: 0, failedPasses: 0 });
}
