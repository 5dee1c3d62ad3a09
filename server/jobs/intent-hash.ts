/**
 * The intent hash of an admission: SHA-256 of the canonical JSON (keys sorted at every
 * level) of what the job would do. The same opId with another intent is a CONFLICT, on
 * the controller and on the worker (which receives the same hash).
 */
import { createHash } from "node:crypto";

export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}

export function intentHash(intent: Record<string, unknown>): string {
  return createHash("sha256").update(canonicalJson(intent)).digest("hex");
}
