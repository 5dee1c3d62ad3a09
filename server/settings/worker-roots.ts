/**
 * Keeps the local worker's `config.json` field `allowedRoots` equal to the owner's
 * setting. The worker enforces its own roots in `peek`/`import` (realpath-checked), so
 * this file is what really grants access; the controller-side check is only for a
 * quicker message. Other fields of the file are kept; written atomically.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";

export function syncWorkerAllowedRoots(workerHome: string, roots: string[]): boolean {
  mkdirSync(workerHome, { recursive: true, mode: 0o700 });
  const file = path.join(workerHome, "config.json");
  let current: Record<string, unknown> = {};
  if (existsSync(file)) {
    try {
      const parsed: unknown = JSON.parse(readFileSync(file, "utf8"));
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) current = parsed as Record<string, unknown>;
    } catch {
      // An unreadable config is rewritten with what we know; the worker would refuse it anyway.
    }
  }
  if (JSON.stringify(current.allowedRoots ?? []) === JSON.stringify(roots)) return false;
  const next = { ...current, allowedRoots: roots };
  const tmp = `${file}.${process.pid}.roots.tmp`;
  writeFileSync(tmp, JSON.stringify(next, null, 2) + "\n", { mode: 0o600 });
  renameSync(tmp, file);
  return true;
}

export function readWorkerAllowedRoots(workerHome: string): string[] | null {
  try {
    const parsed = JSON.parse(readFileSync(path.join(workerHome, "config.json"), "utf8")) as { allowedRoots?: unknown };
    return Array.isArray(parsed.allowedRoots) ? parsed.allowedRoots.map(String) : [];
  } catch {
    return null;
  }
}
