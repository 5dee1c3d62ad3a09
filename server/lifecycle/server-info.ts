/** Version and uptime for /api/health, shared across bundles through globalThis. */
import pkg from "@/package.json";

const KEY = Symbol.for("trainyard.startedAt");
type G = { [KEY]?: number };

export const VERSION: string = pkg.version;

export function markServerStarted(): void {
  (globalThis as G)[KEY] ??= Date.now();
}

export function uptimeSeconds(): number {
  const started = (globalThis as G)[KEY] ?? Date.now();
  return Math.round((Date.now() - started) / 1000);
}
