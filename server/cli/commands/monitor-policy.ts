/** `trainyard monitors policy ID [limits]`: the flags of a health policy, as numbers the server checks again. */
import type { HealthPolicy } from "@/contracts/monitoring/monitoring";
import { CliError } from "../cli-error";

export const POLICY_USAGE = `  trainyard monitors policy ID [--max-failure-rate 0.05] [--max-p95-ms N] [--min-requests 20] [--failure-limit 1]
                              [--inconclusive-limit 3] [--consecutive-errors 4] [--rollback-to RELEASE]
                              [--cooldown-minutes 30] [--max-actions-per-day 3] [--json]
  trainyard monitors policy-pause ID [--json]
A health policy rolls the deployment back to --rollback-to (default: the release before the
watched one) when --failure-limit windows of at least --min-requests requests had more
failures than --max-failure-rate or a p95 over --max-p95-ms, or --consecutive-errors
requests in a row failed; once, never within --cooldown-minutes of its last action, at
most --max-actions-per-day times a day. Running policy again arms it again.`;

export const POLICY_FLAGS = {
  "max-failure-rate": { type: "string" },
  "max-p95-ms": { type: "string" },
  "min-requests": { type: "string" },
  "failure-limit": { type: "string" },
  "inconclusive-limit": { type: "string" },
  "consecutive-errors": { type: "string" },
  "rollback-to": { type: "string" },
  "cooldown-minutes": { type: "string" },
  "max-actions-per-day": { type: "string" },
} as const;

type Flags = Partial<Record<keyof typeof POLICY_FLAGS, string>>;

function numberOf(flags: Flags, flag: keyof typeof POLICY_FLAGS, whole: boolean): number | undefined {
  const text = flags[flag];
  if (text === undefined) return undefined;
  const ok = whole ? /^[1-9]\d*$/.test(text) : /^\d+(\.\d+)?$/.test(text);
  if (!ok) throw new CliError(`--${flag} must be ${whole ? "a whole number ≥ 1" : "a number ≥ 0"} (got ${text}).`, 2);
  return Number(text);
}

/** The policy the flags ask for; what is left out takes the server's default. */
export function policyFromFlags(flags: Flags): Partial<HealthPolicy> {
  const picked = {
    maxFailureRate: numberOf(flags, "max-failure-rate", false),
    maxP95Ms: numberOf(flags, "max-p95-ms", false),
    minRequests: numberOf(flags, "min-requests", true),
    failureLimit: numberOf(flags, "failure-limit", true),
    inconclusiveLimit: numberOf(flags, "inconclusive-limit", true),
    consecutiveErrors: numberOf(flags, "consecutive-errors", true),
    rollbackTo: numberOf(flags, "rollback-to", true),
    cooldownMinutes: numberOf(flags, "cooldown-minutes", false),
    maxActionsPerDay: numberOf(flags, "max-actions-per-day", true),
  };
  return Object.fromEntries(Object.entries(picked).filter(([, v]) => v !== undefined));
}
