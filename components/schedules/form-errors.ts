/**
 * A schedule form's server answer as lines a person can act on: each zod issue names the
 * field it is about (as the form labels it); a domain error (BAD_INPUT, CONFLICT…) is its
 * message, which already says what to do.
 */
import { errorText } from "@/components/ui/error-text";

const FIELDS: Record<string, string> = {
  "source.path": "File path",
  "source.computerId": "Computer",
  "source.stableSeconds": "Stable for (seconds)",
  "spec.target": "Column to predict",
  "spec.maxMinutes": "Max minutes per run",
  "spec.maxTrials": "Max trials per run",
  "clock.minutes": "Every",
  "clock.at": "At (HH:MM)",
  "clock.tz": "Time zone",
  maxRuns: "Max runs (lifetime)",
  maxComputeMinutes: "Max compute minutes (lifetime)",
  minNewRows: "Min new rows",
  name: "Name",
};

export function formErrors(err: unknown): string[] {
  if (!err) return [];
  const issues = (err as { data?: { zodIssues?: { path: (string | number)[]; message: string }[] | null } }).data?.zodIssues;
  if (!issues?.length) return [errorText(err)];
  return issues.map((i) => {
    const field = FIELDS[i.path.join(".")];
    return field ? `${field}: ${i.message}` : i.message;
  });
}

/** A number field's value: "" is `empty`, anything else must be a number (else NaN, which the server refuses in words). */
export function numberOr<T>(value: string, empty: T): number | T {
  return value.trim() === "" ? empty : Number(value);
}

/** Another op id per form opened: a double submit of one form makes one schedule. */
export const newOpId = () => (typeof crypto !== "undefined" && "randomUUID" in crypto ? crypto.randomUUID() : `op-${Date.now()}-${Math.random().toString(36).slice(2)}`);
