/**
 * The local worker's `config.json` is shared by two writers (the computer's own
 * settings, the owner's allowed folders): each merges its fields into what is there,
 * atomically (temp file + rename), keeping the other's. Returns whether it changed.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";

export function readWorkerConfig(workerHome: string): Record<string, unknown> {
  const file = path.join(workerHome, "config.json");
  if (!existsSync(file)) return {};
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, "utf8"));
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {}; // unreadable: rewritten with what we know (the worker would refuse it anyway)
  }
}

export function mergeWorkerConfig(workerHome: string, patch: Record<string, unknown>): boolean {
  mkdirSync(workerHome, { recursive: true, mode: 0o700 });
  const current = readWorkerConfig(workerHome);
  const next = { ...current, ...patch };
  if (JSON.stringify(next) === JSON.stringify(current)) return false;
  const file = path.join(workerHome, "config.json");
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(tmp, JSON.stringify(next, null, 2) + "\n", { mode: 0o600 });
  renameSync(tmp, file);
  return true;
}
