/**
 * A monitor in words and chart points, kept apart from the components so a page says the
 * same thing each time and a test can read it. The words come first on the page; charts
 * repeat them.
 */
import type { ReferenceColumn } from "@/contracts/recipes/data";
import type { DeploymentHealth, MonitorView, MonitorWindow } from "@/contracts/monitoring/monitoring";

/** A deployment's health as a page or a phone says it (contracts/monitoring DEPLOYMENT_HEALTH). */
export const HEALTH_WORDS: Record<DeploymentHealth, string> = {
  healthy: "healthy",
  drifting: "inputs drifting",
  breaching: "over its health limits",
  not_enough_traffic: "not enough traffic",
  preparing: "monitor preparing",
  paused: "monitor paused",
  failed: "monitor failed",
  not_watched: "not monitored",
};

const list = (xs: readonly string[]) => (xs.length <= 1 ? (xs[0] ?? "") : `${xs.slice(0, -1).join(", ")} and ${xs.at(-1)}`);
const pct = (x: number) => `${(x * 100).toFixed(x < 0.1 ? 1 : 0)}%`;

export function monitorSentence(m: MonitorView): string {
  const judged = m.windows.filter((w) => w.verdict);
  switch (m.health) {
    case "preparing":
      return "Preparing its reference: binning the training data of the version this release serves.";
    case "failed":
      return `Its reference could not be made${m.reason ? `: ${m.reason}` : "."}`;
    case "paused":
      return "Paused: requests are not counted until you resume it.";
    case "breaching":
      return m.policy?.state === "fired"
        ? `Its health policy acted: ${m.policy.reason ?? "it rolled the deployment back"}.`
        : "The last window broke the health policy's limits (failures or latency).";
    case "not_watched":
      return "Not monitored.";
    case "drifting":
      return `Inputs changed: ${list(m.alertingColumns)} drifted in each of the last ${m.alertAfter} windows. This says the inputs moved away from the training data, not that the model got worse.`;
    case "not_enough_traffic":
      return judged.length
        ? `Not enough traffic for a verdict: the last window had fewer than ${m.minRows} rows.`
        : `Watching: the first verdict comes after ${m.windowRequests} requests (or when you check now).`;
    case "healthy": {
      const last = judged.at(-1)!;
      const failures = last.failureRate ? `; ${pct(last.failureRate)} of its requests failed` : "";
      if (last.verdict === "drift") {
        return `No alert yet: in the last window (${last.n} requests) ${list(last.driftedColumns)} differed from the training data; an alert needs ${m.alertAfter} such windows in a row${failures}.`;
      }
      return `No alert: the inputs of the last window (${last.n} requests) look like the training data${failures}.`;
    }
  }
}

export const VERDICT_WORDS: Record<NonNullable<MonitorWindow["verdict"]>, string> = { ok: "ok", drift: "drift", not_enough_traffic: "not enough traffic" };

/** One point per window: its requests, failure rate (%), p50 and p95, and the named column's distance and threshold. */
export function windowPoints(windows: readonly MonitorWindow[], column: string | null) {
  return windows.map((w) => {
    const c = column ? w.columns.find((x) => x.name === column) : undefined;
    return {
      window: w.seq,
      requests: w.n,
      failurePct: w.failureRate === null ? null : Number((w.failureRate * 100).toFixed(2)),
      p50Ms: w.p50Ms,
      p95Ms: w.p95Ms,
      distance: c ? Number(c.js.toFixed(4)) : null,
      threshold: c ? Number(c.threshold.toFixed(4)) : null,
    };
  });
}

/** The reference's bins beside a window's, as shares (the two have different sizes). */
export function histogramPoints(column: ReferenceColumn, window: readonly number[] | undefined) {
  const labels =
    column.kind === "numeric"
      ? [...column.edges.map((e, i) => (i === 0 ? `≤ ${fmt(e)}` : `${fmt(column.edges[i - 1]!)}–${fmt(e)}`)), column.edges.length ? `> ${fmt(column.edges.at(-1)!)}` : "all", "missing"]
      : [...column.categories, "other", "missing"];
  const share = (xs: readonly number[]) => {
    const total = xs.reduce((a, b) => a + b, 0);
    return xs.map((x) => (total ? Number(((x / total) * 100).toFixed(1)) : 0));
  };
  const ref = share(column.counts);
  const win = share(window ?? column.counts.map(() => 0));
  return labels.map((bin, i) => ({ bin, reference: ref[i]!, window: win[i]! }));
}

const fmt = (x: number) => String(Number(x.toPrecision(3)));
