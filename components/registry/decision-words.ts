/**
 * What a promotion would change, in the words the confirmation sheet and the e2e read:
 * the acknowledgement a person ticks names the metric and both values, so the event
 * records exactly what was accepted.
 */
import { formatMetric } from "@/components/experiment/format";
import type { Decision } from "./registry-types";

/** The acknowledgement the gate needs, or null when it promotes on the evidence alone. */
export function acknowledgementWords(d: Decision, candidate: number, current: number | null): string | null {
  if (d.verdict !== "needs_acknowledgement") return null;
  if (d.why === "not_comparable") return `I accept promoting version ${candidate} although it cannot be compared with version ${current ?? "—"}: ${d.comparability.reason.replace(/^Not comparable: /, "")}`;
  const change = `${d.metric}: ${formatMetric(d.selected)} → ${formatMetric(d.candidate)}`;
  return d.improvement !== null && d.improvement < 0 ? `I accept a regression on ${change}` : `I accept no useful gain on ${change}`;
}

/** Whether the sheet may send a promotion at all (a missing export or stale evidence cannot). */
export function canPromote(d: Decision): boolean {
  return d.verdict === "first" || d.verdict === "better" || d.verdict === "needs_acknowledgement";
}

/** The CONFLICT a stale page or the gate answered, with the refreshed model and decision when given. */
export interface Refusal {
  message: string;
  code: string | null;
  revision: number | null;
  decision: Decision | null;
}

export function refusalOf(err: unknown): Refusal | null {
  if (!err) return null;
  const e = err as { message?: string; data?: { code?: string; details?: { code?: unknown; model?: { revision?: unknown }; decision?: unknown } | null } };
  const details = e.data?.details ?? null;
  return {
    message: e.message ?? "Something went wrong.",
    code: typeof details?.code === "string" ? details.code : null,
    revision: typeof details?.model?.revision === "number" ? details.model.revision : null,
    decision: (details?.decision as Decision | undefined) ?? null,
  };
}

export const actorWords = (a: { kind: string; name: string }) =>
  a.kind === "owner"
    ? "the owner"
    : a.kind === "token"
      ? `token “${a.name}”`
      : a.kind === "policy"
        ? `policy “${a.name}”`
        : // An open server (no owner password): whoever used this computer's browser or CLI.
          a.kind === "open"
          ? "you (no owner password is set)"
          : a.name;

/** One move of an alias, in the words a person uses: "Version 2 selected, replacing version 1". */
export function aliasMoveWords(e: { kind: string; alias: string; from: { number: number } | null; to: { number: number } }): string {
  const where = e.alias === "selected" ? "selected" : `marked “${e.alias}”`;
  if (e.kind === "rollback") return `Rolled back to version ${e.to.number}${e.from ? ` (from version ${e.from.number})` : ""}${e.alias === "selected" ? "" : ` on “${e.alias}”`}`;
  return `Version ${e.to.number} ${where}${e.from ? `, replacing version ${e.from.number}` : " (the first)"}`;
}
