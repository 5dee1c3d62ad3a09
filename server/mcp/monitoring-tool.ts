/**
 * get_monitoring: the monitors of the bound project's deployments (or one), with their
 * last windows' verdicts, failure rates, latency and per-column drift. Counts and
 * statistics only: a monitor keeps no request's values, so none can be answered.
 */
import { MAX_AGENT_WINDOWS, ZGetMonitoringInput, ZGetMonitoringOutput } from "@/contracts/monitoring/monitoring";
import { notFound } from "./project-scope";
import { tool } from "./tool-spec";

export const getMonitoring = tool({
  name: "get_monitoring",
  description:
    "Monitors of the project's deployments (or of one, by name or id): state, the columns that alert, and the last windows' verdict (ok, drift, not_enough_traffic), drifted columns with their distance and threshold, failure rate and p50/p95 latency. Drift means the inputs changed, not that the model got worse.",
  input: ZGetMonitoringInput,
  output: ZGetMonitoringOutput,
  async run(scope, input) {
    const { api, call } = scope;
    const all = await call(() => api.deployments.list.query({ projectId: scope.projectId }));
    const want = input.deployment?.trim().toLowerCase();
    const chosen = want ? all.filter((d) => d.id === input.deployment || d.name.toLowerCase() === want) : all;
    if (want && !chosen.length) throw notFound(scope, "deployment", input.deployment!);
    const monitors = [];
    for (const d of chosen) {
      for (const m of await call(() => api.monitors.list.query({ deploymentId: d.id }))) {
        monitors.push({ ...m, windows: m.windows.slice(-MAX_AGENT_WINDOWS).map(({ histograms: _h, ...w }) => w) });
      }
    }
    return { monitors };
  },
});
