/**
 * Keeps the local worker's `config.json` field `allowedRoots` equal to the owner's
 * setting. The worker enforces its own roots in `peek`/`import` (realpath-checked), so
 * this file is what really grants access; the controller-side check is only for a
 * quicker message. Other fields of the file are kept; written atomically.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { mergeWorkerConfig, readWorkerConfig } from "@/server/targets/local/worker-config-file";

export function syncWorkerAllowedRoots(workerHome: string, roots: string[]): boolean {
  const current = readWorkerConfig(workerHome);
  if (JSON.stringify(current.allowedRoots ?? []) === JSON.stringify(roots)) return false;
  return mergeWorkerConfig(workerHome, { allowedRoots: roots });
}

export function readWorkerAllowedRoots(workerHome: string): string[] | null {
  try {
    const parsed = JSON.parse(readFileSync(path.join(workerHome, "config.json"), "utf8")) as { allowedRoots?: unknown };
    return Array.isArray(parsed.allowedRoots) ? parsed.allowedRoots.map(String) : [];
  } catch {
    return null;
  }
}
