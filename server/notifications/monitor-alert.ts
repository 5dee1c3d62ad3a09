/**
 * The notification a monitor's alert sends (server/monitoring/judge.ts raises alerts at most
 * once per cooldown): keyed by the alert's row, so judging the same windows again after a
 * restart tells nothing twice.
 */
import type { NotifyInput } from "@/contracts/notifications/notifications";

export function monitorAlertNotice(a: { alertId: number; projectId: string; deploymentId: string; deploymentName: string | null; windowSeq: number; columns: readonly string[] }) {
  const deployment = a.deploymentName ? `"${a.deploymentName}"` : `deployment ${a.deploymentId}`;
  const columns = a.columns.join(", ");
  return {
    id: `monitor-alert:${a.alertId}`,
    kind: "monitor_alert",
    projectId: a.projectId,
    title: `Inputs drifting on ${deployment}: ${columns}`,
    body: `The inputs of ${deployment} moved away from its reference in ${a.columns.length === 1 ? "the column" : "the columns"} ${columns} (window ${a.windowSeq} and the ones before it). Drift says the inputs changed, not that the model got worse: look at the windows on the deployment's page.`,
    link: `/projects/${a.projectId}/ml/deployments/${a.deploymentId}`,
  } satisfies NotifyInput;
}
