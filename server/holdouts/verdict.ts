/**
 * What agents may learn of a holdout comparison: which version the interval favours, and
 * on how many rows — never a value (issue 32: holdout scores never reach an agent, a
 * planner or a proposal, so nothing can be tuned against the holdout). The full answer is
 * refused to any call made through the agent tools, whatever the token: this check sits in
 * the service, below the tRPC and MCP doors.
 */
import { DomainError } from "@/server/errors";
import type { HoldoutCompareResult } from "./holdouts.schema";
import { intervalVerdict, type HoldoutVerdict } from "./interval-verdict";


export interface HoldoutVerdictView {
  holdout: { id: string; name: string };
  metric: string;
  versions: [number, number];
  rows: number;
  rowsLeftOut: number;
  verdict: HoldoutVerdict;
  words: string;
}

export interface HoldoutCaller {
  /** The call came through the agent tools (server/mcp). */
  viaAgentTools?: boolean;
}

export function refuseValuesToAgents(caller: HoldoutCaller): void {
  if (caller.viaAgentTools) {
    throw new DomainError("FORBIDDEN", "Holdout values are never given to agents; compare_on_holdout answers which version the holdout favours, without values.", { code: "holdout_values_for_agents" });
  }
}

/** `difference` is second − first in metric units; the direction says which sign is a gain. */
export function verdictOf(r: HoldoutCompareResult): HoldoutVerdictView {
  const [first, second] = r.difference.of;
  const verdict = intervalVerdict(r.direction, r.difference.low, r.difference.high);
  const pct = Math.round(r.difference.confidence * 100);
  const words =
    verdict === "second_better"
      ? `Version ${second} is better than version ${first} on the holdout: the ${pct}% interval of the difference excludes a loss.`
      : verdict === "first_better"
        ? `Version ${second} is worse than version ${first} on the holdout: the ${pct}% interval of the difference excludes a gain.`
        : `The holdout does not tell versions ${first} and ${second} apart: the ${pct}% interval of the difference includes no change.`;
  return { holdout: r.holdout, metric: r.metric, versions: [first, second], rows: r.rows, rowsLeftOut: r.excluded.total, verdict, words };
}
