/** `trainyard monitors create|list|show|check|pause|resume|retry|reference` against the running server (docs/monitoring.md). */
import type { MonitorView, MonitorWindow } from "@/contracts/monitoring/monitoring";
import { CliError } from "../cli-error";
import { connect, withRetry } from "../api-client";
import { minutesFlag, wholeFlag } from "../flag-numbers";
import { parseSubcommand, requiredArg } from "../subcommand-args";
import { findDeployment } from "./deploy";
import { refusalsKept } from "./models";
import { POLICY_FLAGS, POLICY_USAGE, policyFromFlags } from "./monitor-policy";

export const USAGE = `Usage:
  trainyard monitors create DEPLOYMENT [--window-requests N] [--window-minutes M] [--min-rows N] [--alert-after K]
                                   [--alert-cooldown-minutes M] [--project NAME] [--json]
  trainyard monitors list DEPLOYMENT [--project NAME] [--json]
  trainyard monitors show|check|pause|resume|retry|reference ID [--json]
  trainyard monitors reference ID --accept-window SEQ [--json]   (that window's counts become the reference)
${POLICY_USAGE}
A monitor watches the deployment's current release: each window of N requests (default 200)
(or of --window-minutes M, whichever closes it first) gets a verdict, ok or drift per input column against the release's training data (a
language model's prompt and answer lengths, tokens/s and finish reason against its first
window with enough traffic, or one you accept), or
not_enough_traffic under --min-rows rows (default 50); a column alerts after drifting in K
windows in a row (default 2). check closes the open window now and prints every window.
Drift says the inputs changed, not that the model got worse.`;

const print = (json: boolean, value: unknown, text: () => string) => console.log(json ? JSON.stringify(value, null, 2) : text());

const percent = (x: number | null) => (x === null ? "–" : `${(x * 100).toFixed(1)}%`);

function windowLine(w: MonitorWindow): string {
  const verdict = w.closedAt ? (w.verdict ?? "judging") : "open";
  const drift = w.driftedColumns.length ? `  drifted: ${w.driftedColumns.join(", ")}` : "";
  return `  #${w.seq}  ${verdict.padEnd(18)} ${String(w.n).padStart(6)} requests  failures ${percent(w.failureRate)}  p95 ≤ ${w.p95Ms ?? "–"} ms${drift}`;
}

function monitorText(m: MonitorView): string {
  return [
    `Monitor ${m.id} of "${m.deploymentName}" (release ${m.release.number}, version ${m.release.version}): ${m.state}${m.reason ? ` — ${m.reason}` : ""}`,
    `Windows of ${m.windowRequests} requests${m.windowMinutes ? ` or ${m.windowMinutes} min` : ""}; at least ${m.minRows} rows for a verdict; alerts after ${m.alertAfter} drifted windows in a row.`,
    m.alertingColumns.length ? `ALERT: inputs changed in ${m.alertingColumns.join(", ")}` : "No alert.",
    ...(m.alerts.length ? [`Alerts raised: ${m.alerts.length}, the last at window ${m.alerts.at(-1)!.windowSeq} (${m.alerts.at(-1)!.columns.join(", ")}); at most one per ${m.alertCooldownMinutes} min while it lasts.`] : []),
    m.policy ? `Health policy: ${m.policy.state}${m.policy.reason ? ` — ${m.policy.reason}` : ""}` : "No health policy (report only).",
    ...(m.windows.length ? m.windows.map(windowLine) : ["  (no window yet)"]),
  ].join("\n");
}

/** `check --json`: closed windows, oldest first, in the shape the acceptance checks read. */
const windowsJson = (m: MonitorView) => ({
  windows: m.windows
    .filter((w) => w.closedAt)
    .map((w) => ({ seq: w.seq, n: w.n, rows: w.rows, verdict: w.verdict, driftedColumns: w.driftedColumns, failureRate: w.failureRate, p50Ms: w.p50Ms, p95Ms: w.p95Ms, closedAt: w.closedAt })),
});

export async function monitorsCommand(argv: string[]): Promise<number> {
  const { sub, values, positionals } = parseSubcommand(argv, {
    "window-requests": { type: "string" },
    "window-minutes": { type: "string" },
    "min-rows": { type: "string" },
    "alert-after": { type: "string" },
    "alert-cooldown-minutes": { type: "string" },
    "accept-window": { type: "string" },
    ...POLICY_FLAGS,
  });
  const json = values.json ?? false;
  const need = requiredArg(USAGE);
  const conn = connect();
  const ref = need(positionals[0], sub === "create" || sub === "list" ? "DEPLOYMENT" : "ID");
  const api = conn.api.monitors;
  switch (sub) {
    case "create": {
      const d = await findDeployment(conn, values.project!, ref);
      const input = {
        deploymentId: d.id,
        windowRequests: wholeFlag(values["window-requests"], "--window-requests", USAGE),
        windowMinutes: minutesFlag(values["window-minutes"], "--window-minutes", USAGE),
        minRows: wholeFlag(values["min-rows"], "--min-rows", USAGE),
        alertAfter: wholeFlag(values["alert-after"], "--alert-after", USAGE),
        alertCooldownMinutes: minutesFlag(values["alert-cooldown-minutes"], "--alert-cooldown-minutes", USAGE),
      };
      const m = await refusalsKept(() => api.create.mutate(input));
      print(json, { id: m.id }, () => `Monitor ${m.id} of "${m.deploymentName}": ${m.state}${m.reason ? ` — ${m.reason}` : ""}`);
      return 0;
    }
    case "list": {
      const d = await findDeployment(conn, values.project!, ref);
      const all = await withRetry(() => api.list.query({ deploymentId: d.id }));
      print(json, all, () => (all.length ? all.map(monitorText).join("\n\n") : `"${d.name}" has no monitor. Create one: trainyard monitors create ${JSON.stringify(d.name)}`));
      return 0;
    }
    case "show": {
      const m = await withRetry(() => api.show.query({ monitorId: ref }));
      print(json, m, () => monitorText(m));
      return 0;
    }
    case "check": {
      const m = await refusalsKept(() => api.check.mutate({ monitorId: ref }));
      print(json, windowsJson(m), () => monitorText(m));
      return 0;
    }
    case "pause":
    case "resume":
    case "retry":
    case "policy":
    case "policy-pause": {
      const monitorId = ref;
      const act = {
        pause: () => api.pause.mutate({ monitorId }),
        resume: () => api.resume.mutate({ monitorId }),
        retry: () => api.retry.mutate({ monitorId }),
        policy: () => api.setPolicy.mutate({ monitorId, policy: policyFromFlags(values) }),
        "policy-pause": () => api.pausePolicy.mutate({ monitorId }),
      }[sub];
      const m = await refusalsKept(act);
      print(json, m, () => monitorText(m));
      return 0;
    }
    case "reference": {
      const seq = wholeFlag(values["accept-window"], "--accept-window", USAGE);
      if (seq !== undefined) await refusalsKept(() => api.acceptWindow.mutate({ monitorId: ref, seq }));
      const r = await withRetry(() => api.reference.query({ monitorId: ref }));
      print(json, r, () =>
        r.reference && r.reference.rows > 0
          ? [`Reference: ${r.reference.rows} rows of ${r.referenceWindow ? `window ${r.referenceWindow} (accepted)` : `the training data's ${r.reference.partition} partition`}.`, ...r.reference.columns.map((c) => `  ${c.name} (${c.kind}): ${c.counts.length} bins`)].join("\n")
          : r.reference
            ? "No reference counts yet: the first window with enough traffic becomes the reference."
            : `No reference yet (the monitor is ${r.state}).`,
      );
      return 0;
    }
    default:
      throw new CliError(USAGE, 2);
  }
}
