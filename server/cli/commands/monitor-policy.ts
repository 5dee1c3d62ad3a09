/** `trainyard monitors policy ID [limits]`: the flags of a health policy, as numbers the server checks again. */
import type { HealthPolicy } from "@/contracts/monitoring/monitoring";
import { amountFlag, wholeFlag } from "../flag-numbers";

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

const flag = (name: keyof typeof POLICY_FLAGS) => `--${name}`;

/** The policy the flags ask for; what is left out takes the server's default. */
export function policyFromFlags(flags: Flags): Partial<HealthPolicy> {
  const picked = {
    maxFailureRate: amountFlag(flags["max-failure-rate"], flag("max-failure-rate")),
    maxP95Ms: amountFlag(flags["max-p95-ms"], flag("max-p95-ms")),
    minRequests: wholeFlag(flags["min-requests"], flag("min-requests")),
    failureLimit: wholeFlag(flags["failure-limit"], flag("failure-limit")),
    inconclusiveLimit: wholeFlag(flags["inconclusive-limit"], flag("inconclusive-limit")),
    consecutiveErrors: wholeFlag(flags["consecutive-errors"], flag("consecutive-errors")),
    rollbackTo: wholeFlag(flags["rollback-to"], flag("rollback-to")),
    cooldownMinutes: amountFlag(flags["cooldown-minutes"], flag("cooldown-minutes")),
    maxActionsPerDay: wholeFlag(flags["max-actions-per-day"], flag("max-actions-per-day")),
  };
  return Object.fromEntries(Object.entries(picked).filter(([, v]) => v !== undefined));
}
