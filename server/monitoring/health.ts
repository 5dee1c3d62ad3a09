/**
 * A deployment's health in one word, for the project's first screen (what a phone shows at
 * a glance) and each monitor's view: `breaching` (its last window broke its health policy's
 * limits, or the policy rolled back), `drifting` (a column alerts), `healthy`,
 * `not_enough_traffic`, or what keeps the monitor from judging (`preparing`, `paused`,
 * `failed`). A deployment without a monitor on the release it serves is `not_watched`.
 */
import type { DeploymentHealth, MonitorView } from "@/contracts/monitoring/monitoring";
import { breachOf } from "./policy-decision";

export function healthOf(m: Omit<MonitorView, "health">): DeploymentHealth {
  if (m.state !== "watching") return m.state;
  const closed = m.windows.filter((w) => w.closedAt && w.n > 0);
  const policy = m.policy;
  if (policy && (policy.state === "fired" || closed.slice(-1).some((w) => breachOf(policy.limits, w)))) return "breaching";
  if (m.alertingColumns.length) return "drifting";
  const last = closed.filter((w) => w.verdict).at(-1);
  return !last || last.verdict === "not_enough_traffic" ? "not_enough_traffic" : "healthy";
}
